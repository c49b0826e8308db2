-- Monthly partitions of `readings`, created ahead by a function the app may call but not bypass,
-- and tenancy for the device-side tables.
CREATE TABLE IF NOT EXISTS readings_default PARTITION OF readings DEFAULT;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION ensure_reading_partitions(from_month date, months int) RETURNS int
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $$
DECLARE
  m date := date_trunc('month', from_month)::date;
  made int := 0;
  name text;
BEGIN
  FOR i IN 0 .. months - 1 LOOP
    name := format('readings_%s', to_char(m, 'YYYYMM'));
    IF to_regclass(name) IS NULL THEN
      EXECUTE format('CREATE TABLE %I PARTITION OF readings FOR VALUES FROM (%L) TO (%L)',
                     name, m::timestamptz, (m + interval '1 month')::timestamptz);
      -- partitions are reached only through the parent, whose row-level security applies
      EXECUTE format('REVOKE ALL ON %I FROM meter_app', name);
      made := made + 1;
    END IF;
    m := (m + interval '1 month')::date;
  END LOOP;
  RETURN made;
END $$;
--> statement-breakpoint
REVOKE ALL ON readings_default FROM meter_app;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION ensure_reading_partitions(date, int) TO meter_app;
--> statement-breakpoint
SELECT ensure_reading_partitions((date_trunc('month', now()) - interval '3 months')::date, 16);
--> statement-breakpoint
CALL app_enable_tenancy('readings');
--> statement-breakpoint
CALL app_enable_tenancy('meter_latest');
--> statement-breakpoint
CALL app_enable_tenancy('commands');
--> statement-breakpoint
CALL app_enable_tenancy('read_tasks');
--> statement-breakpoint
CALL app_enable_tenancy('device_warnings');
--> statement-breakpoint
CALL app_enable_tenancy('device_reports');
--> statement-breakpoint
CALL app_enable_tenancy('protections');
--> statement-breakpoint
CALL app_enable_tenancy('timed_controls');
--> statement-breakpoint
CALL app_enable_tenancy('company_third');
--> statement-breakpoint
CALL app_enable_tenancy('meter_configs');
