-- Readings kept out of billing (exception <> ''): rare, so a partial index costs the ingest path
-- nothing, and it finds a meter's readings held as implausible for review (issue 11 item 8).
CREATE INDEX IF NOT EXISTS readings_exceptions ON readings (meter_id, read_at) WHERE exception <> '';
