-- A tenant's connection quota (issue #17): at most max_connections of its clients connected at once across every
-- transport node; NULL is no limit. Counted from the sessions table under the tenant row's lock, so the count holds
-- for the whole cluster and every session-service instance.
ALTER TABLE tenants ADD COLUMN max_connections integer NULL CHECK (max_connections >= 0);

-- The count per CONNECT batch of a tenant with a quota: an index-only count over its connected sessions. The
-- predicate's columns are in other partial indexes already, so updates that were heap-only stay heap-only.
CREATE INDEX sessions_connected_tenant_idx ON sessions (tenant_id) WHERE connected AND tenant_id IS NOT NULL;
