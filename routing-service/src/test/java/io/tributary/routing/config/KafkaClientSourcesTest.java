package io.tributary.routing.config;

import io.tributary.common.kafka.KafkaClientSourcesCheck;

/** No Kafka client of this service is built outside the factory; see {@link KafkaClientSourcesCheck}. */
class KafkaClientSourcesTest extends KafkaClientSourcesCheck {}
