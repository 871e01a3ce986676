// Shapes of the admin REST API's answers and requests, generated from its OpenAPI description
// (session-service/openapi.json, checked against the service by its tests) into api-schema.d.ts by
// `npm run generate:api`, which build, test and dev run first: a change of the API shows up here as a type error.

import type { components } from './api-schema';

type Schemas = components['schemas'];

export type ApiErrorBody = Schemas['ApiError'];
export type IssuedToken = Schemas['IssuedToken'];
export type AdminPrincipal = Schemas['AdminPrincipal'];

export type Session = Schemas['SessionView'];
export type SessionDetails = Schemas['SessionDetails'];
export type Subscription = Schemas['SubscriptionView'];
export type DisconnectAccepted = Schemas['DisconnectAccepted'];

export type HeldSubscription = Schemas['HeldSubscription'];
export type SessionResults = Schemas['SessionResults'];
export type SubscriptionKey = Schemas['SubscriptionKey'];
export type SubscriptionResults = Schemas['SubscriptionResults'];

export type Retained = Schemas['RetainedView'];
export type RetainedResults = Schemas['RetainedResults'];

export type Credential = Schemas['CredentialView'];
export type CredentialPage = Schemas['CredentialPage'];
export type CredentialRequest = Schemas['CredentialRequest'];

export type GroupMember = Schemas['MemberView'];
export type GroupHealth = Schemas['GroupHealth'];
export type TransportNode = Schemas['TransportNode'];
export type Overview = Schemas['ClusterOverview'];
export type HopLatency = Schemas['HopLatency'];

export type KafkaPartition = Schemas['PartitionView'];
export type KafkaTopic = Schemas['TopicView'];
export type KafkaGroupSummary = Schemas['GroupSummary'];
export type KafkaGroup = Schemas['GroupView'];

/** An MQTT-to-Kafka mapping rule (/api/v1/rules/mqtt-to-kafka); key: topic, client-id, none or {level}. */
export type MappingRule = Schemas['MappingRuleView'];
export type MappingRuleRequest = Schemas['MappingRuleRequest'];

/** A tenant (/api/v1/tenants) and its metered usage per hour (/api/v1/tenants/{id}/usage). */
export type Tenant = Schemas['Tenant'];
export type TenantPage = Schemas['TenantPage'];
export type TenantUsage = Schemas['TenantUsage'];
export type HourlyUsage = Schemas['HourlyUsage'];

/** A Kafka-to-MQTT rule (/api/v1/rules/kafka-to-mqtt). qos / retain null: from the record's headers. */
export type BridgeRule = Schemas['BridgeRule'];
export type BridgeRuleRequest = Schemas['BridgeRuleRequest'];
