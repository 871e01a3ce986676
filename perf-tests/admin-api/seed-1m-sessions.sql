-- Run against the quick start's PostgreSQL: psql -h 127.0.0.1 -p 25432 (or its POSTGRES_PORT) -U postgres -d tributary -f seed-1m-sessions.sql
-- 1,000,000 sessions (30 % connected on 4 nodes, 1,000 user names) and 1,100,000 subscriptions (every 10th
-- session also in one of 100 shared groups), for timing the admin console's endpoints.
\timing on
INSERT INTO sessions (client_id, node_id, epoch, connected, clean_start, session_expiry_seconds, protocol_version,
                      keep_alive, remote_address, username, connected_at, disconnected_at, expires_at)
SELECT 'bench/' || substr(md5(g::text), 1, 2) || '/' || lpad(g::text, 7, '0'),
       CASE WHEN g % 10 < 3 THEN 'bench-node-' || (g % 4) END,
       g, g % 10 < 3, false, 4294967295, CASE WHEN g % 3 = 0 THEN 4 ELSE 5 END, 60,
       '10.' || (g % 250) || '.' || (g / 250 % 250) || '.1:' || (1024 + g % 60000),
       'user-' || (g % 1000), now() - (g % 86400) * interval '1 second',
       CASE WHEN g % 10 >= 3 THEN now() END, NULL
FROM generate_series(1, 1000000) g;
INSERT INTO subscriptions (client_id, filter, qos)
SELECT 'bench/' || substr(md5(g::text), 1, 2) || '/' || lpad(g::text, 7, '0'), 'bench/' || (g % 5000) || '/cmd', g % 3
FROM generate_series(1, 1000000) g;
INSERT INTO subscriptions (client_id, filter, qos)
SELECT 'bench/' || substr(md5(g::text), 1, 2) || '/' || lpad(g::text, 7, '0'), '$share/grp-' || (g % 100) || '/bench/data', 1
FROM generate_series(10, 1000000, 10) g;
ANALYZE sessions;
ANALYZE subscriptions;
