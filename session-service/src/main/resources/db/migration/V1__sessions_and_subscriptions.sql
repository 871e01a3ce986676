-- Durable MQTT sessions. One row per client id; the row lock (SELECT ... FOR UPDATE) serializes every change to a
-- client's session and to its subscription feed records, so the feed order per key is the commit order.
CREATE TABLE sessions (
    client_id              text        PRIMARY KEY,
    -- transport node holding the live connection; null while the session is offline
    node_id                text        NULL,
    -- bumped at every CONNECT; a request carrying an older epoch comes from a connection that was taken over
    epoch                  bigint      NOT NULL,
    connected              boolean     NOT NULL DEFAULT false,
    clean_start            boolean     NOT NULL DEFAULT true,
    -- 4294967295 (0xFFFFFFFF) = never expires
    session_expiry_seconds bigint      NOT NULL DEFAULT 0,
    protocol_version       integer     NOT NULL DEFAULT 0,
    keep_alive             integer     NOT NULL DEFAULT 0,
    remote_address         text        NULL,
    username               text        NULL,
    connected_at           timestamptz NULL,
    disconnected_at        timestamptz NULL,
    -- set when a persistent session goes offline; null while connected or when it never expires
    expires_at             timestamptz NULL
);

-- The expiry sweep reads only sessions that can expire, oldest first, through this index.
CREATE INDEX sessions_expires_at_idx ON sessions (expires_at) WHERE expires_at IS NOT NULL;
CREATE INDEX sessions_node_id_idx ON sessions (node_id);

CREATE TABLE subscriptions (
    client_id           text        NOT NULL REFERENCES sessions (client_id) ON DELETE CASCADE,
    filter              text        NOT NULL,
    qos                 smallint    NOT NULL CHECK (qos BETWEEN 0 AND 2),
    no_local            boolean     NOT NULL DEFAULT false,
    retain_as_published boolean     NOT NULL DEFAULT false,
    retain_handling     smallint    NOT NULL DEFAULT 0 CHECK (retain_handling BETWEEN 0 AND 2),
    created_at          timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (client_id, filter)
);
