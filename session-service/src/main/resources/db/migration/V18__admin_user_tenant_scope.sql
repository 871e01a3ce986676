-- Admin users scoped to a tenant (issue #17). NULL: an admin of the whole cluster, as every admin was before. A
-- scoped admin manages its tenant's credentials and reads its tenant (and its usage) over the admin API, nothing
-- else. A tenant with scoped admins cannot be deleted (409) until they are: no admin is silently widened or dropped.
ALTER TABLE admin_users ADD COLUMN tenant_id text NULL REFERENCES tenants (id);
CREATE INDEX admin_users_tenant_idx ON admin_users (tenant_id) WHERE tenant_id IS NOT NULL;
