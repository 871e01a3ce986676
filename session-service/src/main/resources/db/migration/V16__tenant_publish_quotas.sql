-- A tenant's publish quotas (issue #17): PUBLISH packets and payload bytes per second its clients may send, summed
-- over every transport node; NULL is no limit. Enforced by the transport nodes, which lease slices of each second's
-- allowance from a counter in Redis; session-service only stores them and hands them out on the internal API.
ALTER TABLE tenants ADD COLUMN max_publish_rate integer NULL CHECK (max_publish_rate >= 0);
ALTER TABLE tenants ADD COLUMN max_publish_bytes_rate bigint NULL CHECK (max_publish_bytes_rate >= 0);
