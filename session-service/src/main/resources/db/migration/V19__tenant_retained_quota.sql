-- A tenant's retained-message quota (issue #17): at most max_retained retained messages (topics with one) stored for
-- its namespace; NULL is no limit. Exact at the store: the retained consumer admits a new retained topic of such a
-- tenant under a per-tenant advisory lock after counting its unexpired rows (a range of the COLLATE "C" topic index,
-- V8, stopped at the quota); replacing a topic's message and deleting it always pass. The transport nodes refuse
-- retained PUBLISHes of a tenant that is full with 0x97 as well, from what they last polled (approximate).
ALTER TABLE tenants ADD COLUMN max_retained integer NULL CHECK (max_retained >= 0);
