-- Reading ingest by COPY (modules/control/ingest.ts). PostgreSQL refuses COPY FROM into a table under
-- row-level security, and `readings` FORCEs it, so the gateway's batches were multi-row INSERTs at
-- less than half the speed of COPY. `meter_ingest` is the narrowest role that may COPY readings:
--   * NOLOGIN: reached only by `SET LOCAL ROLE meter_ingest` inside a meter_app transaction;
--   * BYPASSRLS (only a superuser may grant it; without it the app keeps the INSERT path);
--   * INSERT on `readings` and nothing else: it cannot read, change or delete a row of any table, so
--     the only thing it can do beyond meter_app is what meter_app already does in the system scope
--     (insert readings of any company). RLS stays ENABLEd and FORCEd on every table.
-- The company of each copied row is never the caller's word: ingest takes it from the `meters` row,
-- read in the same transaction under the caller's own row-level security (a tenant sees only its
-- meters), and rows whose meter it cannot see go through the RLS-checked INSERT instead.
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'meter_ingest') THEN
    CREATE ROLE meter_ingest NOLOGIN NOINHERIT NOSUPERUSER NOCREATEDB NOCREATEROLE;
  END IF;
  IF (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) THEN
    ALTER ROLE meter_ingest BYPASSRLS;
  END IF;
END $$;
--> statement-breakpoint
REVOKE ALL ON ALL TABLES IN SCHEMA public FROM meter_ingest;
--> statement-breakpoint
REVOKE ALL ON ALL SEQUENCES IN SCHEMA public FROM meter_ingest;
--> statement-breakpoint
GRANT USAGE ON SCHEMA public TO meter_ingest;
--> statement-breakpoint
GRANT INSERT ON readings TO meter_ingest;
--> statement-breakpoint
-- readings.id defaults to nextval()
GRANT USAGE ON SEQUENCE readings_id_seq TO meter_ingest;
--> statement-breakpoint
GRANT meter_ingest TO meter_app;
