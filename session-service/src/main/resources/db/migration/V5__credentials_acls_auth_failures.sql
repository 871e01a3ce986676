-- MQTT credentials (issue #6). A credential matches a CONNECT by user name, by client id, or by both; passwords are
-- stored only as bcrypt hashes. ACLs are topic filter templates (placeholders %c, %u, %cn as whole levels),
-- resolved per connection at CONNECT and enforced by the transport node.
CREATE TABLE credentials (
    id            bigserial   PRIMARY KEY,
    username      text        NULL CHECK (username <> ''),
    client_id     text        NULL CHECK (client_id <> ''),
    password_hash text        NOT NULL,
    -- a blocked credential is refused at CONNECT (its live connections are closed when it is blocked)
    blocked       boolean     NOT NULL DEFAULT false,
    publish_acl   text[]      NOT NULL DEFAULT '{}',
    subscribe_acl text[]      NOT NULL DEFAULT '{}',
    description   text        NULL,
    -- bumped by every change; a CONNECT authenticated against an older version is not let through (see
    -- ConnectService), so a change never misses a connection that was being accepted meanwhile
    version       bigint      NOT NULL DEFAULT 1,
    created_at    timestamptz NOT NULL,
    updated_at    timestamptz NOT NULL,
    CHECK (username IS NOT NULL OR client_id IS NOT NULL)
);
-- One credential per (username, client id) pair, a missing part counting as one value of its own.
CREATE UNIQUE INDEX credentials_identity_idx ON credentials (COALESCE(username, ''), COALESCE(client_id, ''));
CREATE INDEX credentials_client_id_idx ON credentials (client_id) WHERE client_id IS NOT NULL;

-- The credential a session's live connection authenticated with (null: anonymous), so changing or deleting a
-- credential finds the connections to close without a scan.
ALTER TABLE sessions ADD COLUMN credential_id bigint NULL;
CREATE INDEX sessions_connected_credential_idx ON sessions (credential_id) WHERE connected AND credential_id IS NOT NULL;

-- Failed CONNECT authentications, one row per client id and source IP; purged after a retention period so that a
-- flood of random client ids cannot grow the table without bound.
CREATE TABLE auth_failures (
    client_id        text        NOT NULL,
    remote_ip        text        NOT NULL,
    failures         bigint      NOT NULL,
    last_username    text        NULL,
    last_cause       text        NOT NULL,
    first_failure_at timestamptz NOT NULL,
    last_failure_at  timestamptz NOT NULL,
    PRIMARY KEY (client_id, remote_ip)
);
CREATE INDEX auth_failures_last_failure_idx ON auth_failures (last_failure_at);
