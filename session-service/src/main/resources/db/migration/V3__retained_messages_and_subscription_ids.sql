-- Retained messages (MQTT 3.1.1 / 5.0 section 3.3.1.3): the last retained PUBLISH per topic, written by the
-- retained consumer from tributary.publish. A zero-byte retained payload deletes the row instead.
CREATE TABLE retained_messages (
    topic      text        PRIMARY KEY,
    payload    bytea       NOT NULL,
    qos        smallint    NOT NULL CHECK (qos BETWEEN 0 AND 2),
    -- the publish record's headers (MQTT 5 properties, receive time), encoded by RetainedHeaders
    headers    bytea       NOT NULL,
    -- from the MQTT 5 message expiry interval; null = never expires
    expires_at timestamptz NULL,
    updated_at timestamptz NOT NULL DEFAULT now(),
    -- where the row was written from, for diagnostics and to ignore an older record replayed after a newer one
    kafka_partition integer NOT NULL,
    kafka_offset    bigint  NOT NULL
);

-- Wildcard SUBSCRIBEs narrow by the literal prefix before the first wildcard: LIKE 'prefix%' needs this
-- operator class to use the index whatever the database collation.
CREATE INDEX retained_messages_topic_prefix_idx ON retained_messages (topic text_pattern_ops);
CREATE INDEX retained_messages_expires_at_idx ON retained_messages (expires_at) WHERE expires_at IS NOT NULL;

-- MQTT 5 Subscription Identifier (null = none), so that a resumed session gets it back.
ALTER TABLE subscriptions ADD COLUMN subscription_id integer NULL CHECK (subscription_id BETWEEN 1 AND 268435455);
