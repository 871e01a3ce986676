-- One row: when the cluster-wide $SYS statistics were last published. Every session-service instance tries to move
-- it forward each interval; the one whose conditional UPDATE succeeds publishes, so the figures go out once per
-- interval whatever the number of instances.
CREATE TABLE sys_publication (
    id           smallint    PRIMARY KEY CHECK (id = 1),
    published_at timestamptz NOT NULL
);
INSERT INTO sys_publication (id, published_at) VALUES (1, '-infinity');
