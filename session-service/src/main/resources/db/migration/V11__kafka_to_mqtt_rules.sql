-- Kafka-to-MQTT rules (issue #16): every record of the user's kafka_topic is delivered to MQTT subscribers on
-- mqtt_topic ({key} = the record key). qos / retain NULL: taken from the record's mqtt.qos / mqtt.retain headers.
-- Each rule is consumed by the consumer group tributary-bridge-<id>, spread over the session-service instances.
CREATE TABLE kafka_to_mqtt_rules (
    id          bigserial   PRIMARY KEY,
    kafka_topic text        NOT NULL CHECK (kafka_topic <> ''),
    mqtt_topic  text        NOT NULL CHECK (mqtt_topic <> ''),
    qos         smallint    NULL CHECK (qos BETWEEN 0 AND 2),
    retain      boolean     NULL,
    created_at  timestamptz NOT NULL,
    UNIQUE (kafka_topic, mqtt_topic)
);
