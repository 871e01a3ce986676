-- Tenants (issue #17): a tenant owns credentials, and through them clients, and a topic namespace: its clients'
-- topics live under $tenant/<id>/ inside the broker. The id is what topics, the tributary.tenant Kafka header and
-- (later) quotas and metering are keyed by, so it never changes.
CREATE TABLE tenants (
    id          text        PRIMARY KEY CHECK (id ~ '^[a-z0-9][a-z0-9-]{0,62}$'),
    description text        NULL,
    created_at  timestamptz NOT NULL
);

-- NULL: the global namespace, as every credential was before tenants existed.
ALTER TABLE credentials ADD COLUMN tenant_id text NULL REFERENCES tenants (id);
CREATE INDEX credentials_tenant_idx ON credentials (tenant_id) WHERE tenant_id IS NOT NULL;

-- The namespace a session was created in: a CONNECT from another namespace may not resume or take it over (its
-- queue and subscriptions hold that namespace's messages). No foreign key: sessions outlive nothing they need from
-- the tenant row, and CONNECTs do not pay for the check.
ALTER TABLE sessions ADD COLUMN tenant_id text NULL;
