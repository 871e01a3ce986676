-- A tenant's retained-message quota (issue #17): at most max_retained retained messages (topics with one) stored for
-- its namespace; NULL is no limit. Exact at the store: the retained consumer admits a new retained topic of such a
-- tenant under a per-tenant advisory lock after counting its unexpired rows (a range of the COLLATE "C" topic index,
-- V8, stopped at the quota); replacing a topic's message and deleting it always pass. The transport nodes refuse
-- retained PUBLISHes of a tenant that is full with 0x97 as well, from what they last polled (approximate).
ALTER TABLE tenants ADD COLUMN max_retained integer NULL CHECK (max_retained >= 0);

-- A tenant's queued-message quota (issue #17): at most max_queued_messages messages in each of its persistent
-- sessions' queues, in place of TRIBUTARY_QUEUE_LIMIT when lower; NULL is the global limit. Enforced by the routers,
-- which fetch it from the internal quota list; the queue-full policy (drop-oldest / drop-newest) is the global one.
ALTER TABLE tenants ADD COLUMN max_queued_messages integer NULL CHECK (max_queued_messages >= 1);
