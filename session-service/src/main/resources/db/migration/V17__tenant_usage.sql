-- Metering (issue 17): each tenant's usage per UTC hour, added up from the transport nodes' usage deltas
-- (Kafka tributary.metering.deltas) by session-service's MeteringConsumer. No foreign key to tenants: usage is
-- billing data and outlives a deleted tenant.
CREATE TABLE tenant_usage (
    tenant_id          text        NOT NULL,
    hour               timestamptz NOT NULL CHECK (date_trunc('hour', hour) = hour),
    messages_in        bigint      NOT NULL DEFAULT 0,
    bytes_in           bigint      NOT NULL DEFAULT 0,
    messages_out       bigint      NOT NULL DEFAULT 0,
    bytes_out          bigint      NOT NULL DEFAULT 0,
    -- added up in milliseconds so that short intervals do not round away; seconds are what is shown and billed
    connection_millis  bigint      NOT NULL DEFAULT 0,
    connection_seconds bigint      GENERATED ALWAYS AS (connection_millis / 1000) STORED,
    -- payload bytes of the tenant's retained messages, as last sampled in the hour
    stored_bytes       bigint      NOT NULL DEFAULT 0,
    updated_at         timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (tenant_id, hour)
);

-- The last delta added per node incarnation and tenant: a node numbers its deltas upwards (per tenant they are on
-- one partition, in order), so a delta numbered at or below it was added already and is skipped. Updated in the
-- same transaction as tenant_usage: exactly once however often Kafka delivers a delta.
CREATE TABLE metering_sources (
    node_id       text        NOT NULL,
    incarnation   bigint      NOT NULL,
    tenant_id     text        NOT NULL,
    last_sequence bigint      NOT NULL,
    updated_at    timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (node_id, incarnation, tenant_id)
);
CREATE INDEX metering_sources_updated_at_idx ON metering_sources (updated_at);
