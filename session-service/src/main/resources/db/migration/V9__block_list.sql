-- Block list (issue #6, limits): client ids, user names and source addresses (an address or a CIDR range) that may
-- not connect. Checked at every CONNECT (refused as banned: MQTT 5 0x8A, 3.x return code 5); adding an entry closes
-- the live connections it matches. Exactly one of the three columns is set per entry.
CREATE TABLE block_list (
    id         bigserial   PRIMARY KEY,
    client_id  text        NULL CHECK (client_id <> ''),
    username   text        NULL CHECK (username <> ''),
    ip_range   cidr        NULL,
    reason     text        NULL,
    created_at timestamptz NOT NULL,
    CHECK (num_nonnulls(client_id, username, ip_range) = 1)
);
CREATE UNIQUE INDEX block_list_client_id_idx ON block_list (client_id) WHERE client_id IS NOT NULL;
CREATE UNIQUE INDEX block_list_username_idx ON block_list (username) WHERE username IS NOT NULL;
CREATE UNIQUE INDEX block_list_ip_range_idx ON block_list (ip_range) WHERE ip_range IS NOT NULL;
-- "Which ranges contain this address" at every CONNECT, without walking the ranges.
CREATE INDEX block_list_ip_range_gist_idx ON block_list USING gist (ip_range inet_ops) WHERE ip_range IS NOT NULL;

-- Adding a user name entry finds that user's live connections through this index rather than a walk over sessions.
CREATE INDEX sessions_connected_username_idx ON sessions (username) WHERE connected AND username IS NOT NULL;
