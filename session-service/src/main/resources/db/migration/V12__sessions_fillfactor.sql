-- Every CONNECT updates its session row right after inserting or locking it (the epoch), and every disconnect of a
-- persistent session updates it again. An update can stay on its page and skip the eight indexes (a heap-only
-- update) only when the page has room for the new version; with the default fill factor of 100 new rows fill pages
-- completely, and 42 % of the updates in a connect storm had to write a new version into every index
-- (pg_stat_user_tables.n_tup_hot_upd, docs/benchmarks.md). Leaving a fifth of each page free keeps them heap-only.
-- Applies to pages written from now on; VACUUM FULL or pg_repack rewrites the existing ones.
ALTER TABLE sessions SET (fillfactor = 80);
