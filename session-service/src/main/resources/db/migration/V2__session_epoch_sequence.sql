-- Source of every connection epoch. A per-row counter restarted at 1 whenever a session row was deleted (disconnect
-- with expiry 0, expiry sweep, admin delete), so a late TAKEOVER or DISCONNECT of an earlier incarnation could carry
-- a higher epoch than the new connection and close it. One sequence shared by all clients and all session-service
-- instances never goes backwards, whatever happens to the rows.
-- CACHE 1 (the default, spelled out): with per-connection caching, values would no longer increase in the order
-- nextval is called across connections, and a CONNECT takes its epoch under the row lock relying on that order.
CREATE SEQUENCE session_epochs AS bigint START WITH 1 INCREMENT BY 1 NO CYCLE CACHE 1;

-- Continue above every epoch already handed out to a stored session (rows written before this migration).
SELECT setval('session_epochs', COALESCE((SELECT max(epoch) FROM sessions), 0) + 1, false);
