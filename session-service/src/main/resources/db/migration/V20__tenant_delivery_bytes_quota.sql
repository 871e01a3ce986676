-- A tenant's quota on bytes out (issue #17): payload bytes per second delivered to all of its clients, summed over
-- every transport node; NULL is no limit. Enforced by the transport nodes at delivery time from the same Redis lease
-- machinery as max_publish_bytes_rate (QoS 0 beyond it dropped, QoS 1/2 delayed); session-service only stores it and
-- hands it out on the internal quota list.
ALTER TABLE tenants ADD COLUMN max_delivery_bytes_rate bigint NULL CHECK (max_delivery_bytes_rate >= 0);
