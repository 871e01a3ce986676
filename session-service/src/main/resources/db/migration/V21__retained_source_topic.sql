-- Retained messages now come from their own topic, tributary.retained, whose offsets have nothing to do with those
-- of tributary.publish: a row remembers which topic its (partition, offset) belong to. Rows written so far came from
-- tributary.publish. A record of tributary.retained replaces a row from tributary.publish whatever the offsets (every
-- record there is a copy of a publish written after the producers were upgraded, so newer than any row of the old
-- source); the one-time drain of tributary.publish never replaces a row from tributary.retained.
ALTER TABLE retained_messages ADD COLUMN kafka_topic text NOT NULL DEFAULT 'tributary.publish';
