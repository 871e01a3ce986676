-- Admin REST API authentication (issue #6). Admin users log in with a password (bcrypt hash) and get an opaque
-- bearer token; only its SHA-256 is stored, with an expiry. The first admin comes from configuration at start-up
-- (TRIBUTARY_ADMIN_USER / TRIBUTARY_ADMIN_PASSWORD) when no admin exists yet.
CREATE TABLE admin_users (
    id            bigserial   PRIMARY KEY,
    username      text        NOT NULL UNIQUE CHECK (username <> ''),
    password_hash text        NOT NULL,
    created_at    timestamptz NOT NULL
);

CREATE TABLE admin_tokens (
    -- hex SHA-256 of the token: a database dump does not hand out usable tokens
    token_hash    text        PRIMARY KEY,
    admin_user_id bigint      NOT NULL REFERENCES admin_users (id) ON DELETE CASCADE,
    created_at    timestamptz NOT NULL,
    expires_at    timestamptz NOT NULL
);
CREATE INDEX admin_tokens_expires_idx ON admin_tokens (expires_at);

-- A credential may name the CN of a client certificate: a CONNECT over mutual TLS presenting that CN (verified by the
-- transport node against the configured CA) is authenticated without a password. Such a credential needs no
-- password; it may still name a user name and/or client id, which the CONNECT must then also carry.
ALTER TABLE credentials ADD COLUMN certificate_cn text NULL CHECK (certificate_cn <> '');
ALTER TABLE credentials ALTER COLUMN password_hash DROP NOT NULL;
ALTER TABLE credentials ADD CONSTRAINT credentials_secret_check
    CHECK (password_hash IS NOT NULL OR certificate_cn IS NOT NULL);
ALTER TABLE credentials DROP CONSTRAINT credentials_check;
ALTER TABLE credentials ADD CONSTRAINT credentials_identity_check
    CHECK (username IS NOT NULL OR client_id IS NOT NULL OR certificate_cn IS NOT NULL);
DROP INDEX credentials_identity_idx;
CREATE UNIQUE INDEX credentials_identity_idx
    ON credentials (COALESCE(username, ''), COALESCE(client_id, ''), COALESCE(certificate_cn, ''));
CREATE INDEX credentials_certificate_cn_idx ON credentials (certificate_cn) WHERE certificate_cn IS NOT NULL;
