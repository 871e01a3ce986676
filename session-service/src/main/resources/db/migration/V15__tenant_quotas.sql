-- Three more tenant quotas (issue #17), each NULL for no limit, like max_connections:
--  max_sessions      persistent sessions (session expiry > 0) stored for the tenant's clients at once; counted and
--                    admitted at CONNECT under the tenant row's lock, like the connections
--  max_subscriptions subscriptions stored for the tenant's clients in total; admitted per filter at SUBSCRIBE under
--                    the tenant row's lock
--  connect_rate      CONNECTs per second the whole tenant may make, across the cluster: a per-second window counted
--                    in Redis
ALTER TABLE tenants
    ADD COLUMN max_sessions integer NULL CHECK (max_sessions >= 0),
    ADD COLUMN max_subscriptions integer NULL CHECK (max_subscriptions >= 0),
    ADD COLUMN connect_rate integer NULL CHECK (connect_rate >= 0);

-- The count of a tenant's persistent sessions: index-only over its rows with an expiry. An update changing a
-- session's expiry between 0 and non-zero is no longer heap-only (rare: a client keeps its expiry); other updates
-- are, as before.
CREATE INDEX sessions_persistent_tenant_idx ON sessions (tenant_id)
    WHERE session_expiry_seconds > 0 AND tenant_id IS NOT NULL;
-- The count of a tenant's subscriptions: its sessions from this index (neither column ever changes, so heap-only
-- updates stay heap-only), each joined to the subscriptions' primary key (client_id, filter), index-only both.
CREATE INDEX sessions_tenant_idx ON sessions (tenant_id, client_id) WHERE tenant_id IS NOT NULL;
