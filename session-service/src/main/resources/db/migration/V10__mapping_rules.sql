-- MQTT-to-Kafka mapping rules (issue #16): every PUBLISH matching filter (named levels such as {vin} allowed) is also
-- written to the user's Kafka topic kafka_topic, keyed as key_source says (topic, client-id, none or {level}).
-- PostgreSQL is the record of the rules; transport nodes get them from the compacted topic tributary.mapping-rules.
CREATE TABLE mapping_rules (
    id          bigserial   PRIMARY KEY,
    filter      text        NOT NULL CHECK (filter <> ''),
    kafka_topic text        NOT NULL CHECK (kafka_topic <> ''),
    key_source  text        NOT NULL,
    created_at  timestamptz NOT NULL,
    UNIQUE (filter, kafka_topic)
);
