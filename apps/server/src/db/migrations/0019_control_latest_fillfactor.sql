-- meter_latest is rewritten on every reading of every meter: free room on each page lets PostgreSQL
-- update rows in place (HOT, no index writes), which keeps ingest fast and the table from bloating.
ALTER TABLE meter_latest SET (fillfactor = 70);
