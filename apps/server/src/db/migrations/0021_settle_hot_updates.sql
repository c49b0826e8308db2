-- Settlement rewrites a meter's settle cursor and its period state on every settled reading. Free
-- room on each page lets PostgreSQL update those rows in place (HOT: no new index entries), as for
-- meter_latest (0019). Applies to pages written from now on; existing rows move as they are updated.
ALTER TABLE settle_cursors SET (fillfactor = 80);
--> statement-breakpoint
ALTER TABLE meter_periods SET (fillfactor = 80);
