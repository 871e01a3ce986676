// Shapes of the admin REST API's answers (session-service/API.md).

export interface Session {
  clientId: string;
  nodeId: string | null;
  epoch: number;
  connected: boolean;
  cleanStart: boolean;
  sessionExpirySeconds: number;
  protocolVersion: number;
  keepAliveSeconds: number;
  remoteAddress: string | null;
  username: string | null;
  connectedAt: string | null;
  disconnectedAt: string | null;
  expiresAt: string | null;
}

export interface SessionDetails {
  session: Session;
  presence: { nodeId: string; epoch: number; connectedAt: string } | null;
  presenceError: string | null;
  queue: { queued: number; dropped: number; lastSeq: number } | null;
}

export interface Subscription {
  filter: string;
  qos: number;
  noLocal: boolean;
  retainAsPublished: boolean;
  retainHandling: number;
  subscriptionId: number | null;
  createdAt: string;
}

export interface HeldSubscription extends Subscription {
  clientId: string;
  shareGroup: string | null;
  connected: boolean;
  nodeId: string | null;
}

export interface SessionResults {
  items: Session[];
  next: string | null;
}

export interface SubscriptionKey {
  filter: string;
  clientId: string;
}

export interface SubscriptionResults {
  items: HeldSubscription[];
  next: SubscriptionKey | null;
}

export interface Retained {
  topic: string;
  qos: number;
  payloadSize: number;
  payloadBase64: string;
  payloadUtf8: string | null;
  expiresAt: string | null;
  updatedAt: string;
}

export interface RetainedResults {
  items: Retained[];
  next: string | null;
}

export interface Page<T> {
  items: T[];
  page: number;
  size: number;
  total: number;
}

export interface Credential {
  id: number;
  username: string | null;
  clientId: string | null;
  certificateCn: string | null;
  blocked: boolean;
  publish: string[];
  subscribe: string[];
  description: string | null;
  version: number;
  createdAt: string;
  updatedAt: string;
}

export interface CredentialRequest {
  username: string | null;
  clientId: string | null;
  certificateCn: string | null;
  password?: string | null;
  blocked: boolean;
  publish: string[];
  subscribe: string[];
  description: string | null;
}

export interface GroupMember {
  memberId: string;
  clientId: string;
  host: string;
  partitions: number;
}

export interface GroupHealth {
  groupId: string;
  state: string;
  members: GroupMember[];
  lag: number;
}

export interface TransportNode {
  nodeId: string;
  incarnation: string;
  alive: boolean;
  firstSeen: string;
  lastSeen: string;
  connections: number | null;
  messagesReceived: number | null;
  messagesSent: number | null;
  statsAt: string | null;
}

export interface Overview {
  at: string;
  sessions: number | null;
  connections: number;
  messagesReceived: number;
  messagesSent: number;
  transportNodes: TransportNode[];
  routing: GroupHealth | null;
  sessionService: GroupHealth | null;
  problems: string[];
}

export interface KafkaPartition {
  partition: number;
  leader: number | null;
  replicas: number[];
  isr: number[];
  startOffset: number;
  endOffset: number;
}

export interface KafkaTopic {
  name: string;
  partitions: KafkaPartition[];
  messages: number;
}

export interface KafkaGroupSummary {
  groupId: string;
  state: string;
  members: number;
  lag: number;
}

export interface KafkaGroup {
  groupId: string;
  state: string;
  members: GroupMember[];
  lag: number;
  partitions: { topic: string; partition: number; committed: number | null; endOffset: number; lag: number | null }[];
}

/** An MQTT-to-Kafka mapping rule (/api/v1/rules/mqtt-to-kafka). */
export interface MappingRule {
  id: number;
  filter: string;
  kafkaTopic: string;
  /** topic, client-id, none or {level} */
  key: string;
  createdAt: string;
}

export interface MappingRuleRequest {
  filter: string;
  kafkaTopic: string;
  key: string;
  /** create the topic with this many partitions when it does not exist */
  partitions: number | null;
}

/** A Kafka-to-MQTT rule (/api/v1/rules/kafka-to-mqtt). qos / retain null: from the record's headers. */
export interface BridgeRule {
  id: number;
  kafkaTopic: string;
  mqttTopic: string;
  qos: number | null;
  retain: boolean | null;
  createdAt: string;
}
