-- Node liveness. One row per transport node process (incarnation): a restarted node with the same node id is a new
-- row, so declaring the old process dead never touches sessions of the new one.
CREATE TABLE transport_nodes (
    node_id     text        NOT NULL,
    -- random id the node process chose at start
    incarnation text        NOT NULL,
    first_seen  timestamptz NOT NULL,
    -- time of the last heartbeat (database clock, so instances with skewed clocks agree)
    last_seen   timestamptz NOT NULL,
    -- set once, by the one detector that claimed it; a dead incarnation's heartbeats are refused from then on
    dead_at     timestamptz NULL,
    PRIMARY KEY (node_id, incarnation)
);

-- The incarnation of the node holding the live connection; null while offline (and for sessions connected through
-- a transport that predates liveness, which the detector cannot attribute).
ALTER TABLE sessions ADD COLUMN node_incarnation text NULL;
-- The detector looks, every run, for sessions still connected on each dead incarnation (almost always none): one
-- probe per dead incarnation, not a walk over all sessions of a node id that has live sessions of a newer one.
CREATE INDEX sessions_connected_node_incarnation_idx ON sessions (node_id, node_incarnation) WHERE connected;

-- Wills (MQTT 3.1.3.2 / 3.1.3.3), one per client: the will of its current connection, or a will waiting for its
-- delay to pass. Not tied to the session row by a foreign key: a will may have to be published after the session
-- is gone (session expiry 0 ends the session at once).
CREATE TABLE wills (
    client_id        text        PRIMARY KEY,
    -- the connection epoch that left the will; a disconnect of another epoch does not touch it
    epoch            bigint      NOT NULL,
    -- node that received the CONNECT (the tributary.node-id header of the publish record)
    node_id          text        NOT NULL,
    protocol_version smallint    NOT NULL,
    topic            text        NOT NULL,
    payload          bytea       NOT NULL,
    qos              smallint    NOT NULL CHECK (qos BETWEEN 0 AND 2),
    retain           boolean     NOT NULL,
    -- MQTT 5 Will Delay Interval
    delay_seconds    bigint      NOT NULL DEFAULT 0,
    -- the MQTT 5 properties that travel with the message (PublishProperties as JSON); null = none
    properties       jsonb       NULL,
    -- when to publish: null while the connection lives; set when it ends abnormally (or its node is declared dead)
    will_publish_at  timestamptz NULL
);

-- The will publisher reads only due wills, in due order, through this index.
CREATE INDEX wills_will_publish_at_idx ON wills (will_publish_at) WHERE will_publish_at IS NOT NULL;
