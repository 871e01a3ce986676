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
