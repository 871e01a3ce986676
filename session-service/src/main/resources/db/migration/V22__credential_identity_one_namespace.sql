-- Issue 34: an identity belongs to one namespace. Every user name (also a JWT subject), client id and certificate CN
-- is named by credentials of one namespace at most (a tenant, or the global namespace: tenant_id NULL, '' below,
-- which no tenant id can be). Before, the most specific credential won at CONNECT whatever its tenant, so a
-- tenant's admin could name another tenant's device CN with a client id and have that device authenticated into its
-- own tenant. With this, a credential that fits a CONNECT through one of its identities is always of the namespace
-- owning that identity (ConnectAuthenticator, CredentialFit). Held here, not only in the admin API, so that two
-- admins racing for one identity, or any other writer, cannot break it.
--
-- Exclusion constraints on (identity =, namespace <>) need btree_gist: part of PostgreSQL's contrib, shipped by the
-- official images and the managed services, and a trusted extension (the database owner may create it).
CREATE EXTENSION IF NOT EXISTS btree_gist;

-- Existing credentials that break the rule stop the upgrade with the list, rather than the constraint's error naming
-- one pair: which credential keeps the identity is the operator's decision.
DO $$
DECLARE
    conflicts text;
BEGIN
    SELECT string_agg(format('%s %L', kind, value), ', ') INTO conflicts FROM (
        SELECT 'username' AS kind, username AS value FROM credentials WHERE username IS NOT NULL
            GROUP BY username HAVING count(DISTINCT COALESCE(tenant_id, '')) > 1
        UNION ALL
        SELECT 'clientId', client_id FROM credentials WHERE client_id IS NOT NULL
            GROUP BY client_id HAVING count(DISTINCT COALESCE(tenant_id, '')) > 1
        UNION ALL
        SELECT 'certificateCn', certificate_cn FROM credentials WHERE certificate_cn IS NOT NULL
            GROUP BY certificate_cn HAVING count(DISTINCT COALESCE(tenant_id, '')) > 1
    ) AS shared;
    IF conflicts IS NOT NULL THEN
        RAISE EXCEPTION 'credentials of several namespaces name the same identity: %', conflicts
            USING HINT = 'Keep each user name, client id and certificate CN in one namespace (change or delete the'
                || ' other credentials with the previous version), then start this version again.';
    END IF;
END $$;

ALTER TABLE credentials ADD CONSTRAINT credentials_username_one_namespace
    EXCLUDE USING gist (username WITH =, (COALESCE(tenant_id, '')) WITH <>) WHERE (username IS NOT NULL);
ALTER TABLE credentials ADD CONSTRAINT credentials_client_id_one_namespace
    EXCLUDE USING gist (client_id WITH =, (COALESCE(tenant_id, '')) WITH <>) WHERE (client_id IS NOT NULL);
ALTER TABLE credentials ADD CONSTRAINT credentials_certificate_cn_one_namespace
    EXCLUDE USING gist (certificate_cn WITH =, (COALESCE(tenant_id, '')) WITH <>) WHERE (certificate_cn IS NOT NULL);

-- CONNECT looks credentials up by user name too (whether any names it, and those naming it without a client id).
CREATE INDEX credentials_username_idx ON credentials (username) WHERE username IS NOT NULL;
