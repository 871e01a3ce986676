-- Keyset pages of the admin console (GET /api/v1/search/...). Client ids and filters are ordered and compared
-- byte-wise (COLLATE "C") whatever the database collation, so that a prefix search (LIKE 'prefix%') and a page
-- boundary (> last key) are both ranges of one index: every page costs a short index scan, also at millions of rows.
CREATE INDEX sessions_client_id_c_idx ON sessions (client_id COLLATE "C");
CREATE INDEX sessions_username_client_id_idx ON sessions (username COLLATE "C", client_id COLLATE "C")
    WHERE username IS NOT NULL;
-- Replaces sessions_node_id_idx (node_id alone): equality on node_id still uses its first column.
CREATE INDEX sessions_node_id_client_id_idx ON sessions (node_id, client_id COLLATE "C") WHERE node_id IS NOT NULL;
DROP INDEX sessions_node_id_idx;
CREATE INDEX subscriptions_filter_client_id_idx ON subscriptions (filter COLLATE "C", client_id COLLATE "C");
-- Retained messages by topic prefix in byte order (the text_pattern_ops index serves LIKE only, not the page order).
CREATE INDEX retained_messages_topic_c_idx ON retained_messages (topic COLLATE "C");
