-- Tenancy, the app role and the append-only audit log (DESIGN §5).
-- The app connects as meter_app: it owns no table, is no superuser and cannot bypass RLS.
DO $$ BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'meter_app') THEN
    CREATE ROLE meter_app LOGIN NOSUPERUSER NOBYPASSRLS NOCREATEDB NOCREATEROLE;
  END IF;
END $$;
--> statement-breakpoint
GRANT USAGE ON SCHEMA public TO meter_app;
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO meter_app;
--> statement-breakpoint
GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO meter_app;
--> statement-breakpoint
ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO meter_app;
--> statement-breakpoint
ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT USAGE, SELECT ON SEQUENCES TO meter_app;
--> statement-breakpoint
-- The tenant of the current transaction. A reset custom setting reads as '' (not NULL).
CREATE OR REPLACE FUNCTION app_company() RETURNS bigint LANGUAGE sql STABLE PARALLEL SAFE AS
$$ SELECT nullif(current_setting('app.company_id', true), '')::bigint $$;
--> statement-breakpoint
-- A platform admin acting across companies, or a system job.
CREATE OR REPLACE FUNCTION app_all_companies() RETURNS boolean LANGUAGE sql STABLE PARALLEL SAFE AS
$$ SELECT coalesce(current_setting('app.all_companies', true), '') = 'on' $$;
--> statement-breakpoint
-- The user's area scope: '' = every area of the company, else the comma list of visible area ids.
CREATE OR REPLACE FUNCTION app_area_visible(area bigint) RETURNS boolean LANGUAGE sql STABLE PARALLEL SAFE AS
$$ SELECT nullif(current_setting('app.area_ids', true), '') IS NULL
       OR area = ANY (string_to_array(current_setting('app.area_ids', true), ',')::bigint[]) $$;
--> statement-breakpoint
-- Turns on the company policy for a tenant-owned table; later migrations call it for their tables.
CREATE OR REPLACE PROCEDURE app_enable_tenancy(tbl text, col text DEFAULT 'company_id') LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', tbl);
  EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', tbl);
  EXECUTE format('DROP POLICY IF EXISTS tenant ON %I', tbl);
  EXECUTE format('CREATE POLICY tenant ON %I USING (%I = app_company() OR app_all_companies()) '
              || 'WITH CHECK (%I = app_company() OR app_all_companies())', tbl, col, col);
END $$;
--> statement-breakpoint
-- Restricts SELECT on a table to the user's bound areas (on top of the company policy).
CREATE OR REPLACE PROCEDURE app_enable_area_scope(tbl text, col text) LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format('DROP POLICY IF EXISTS area_scope ON %I', tbl);
  EXECUTE format('CREATE POLICY area_scope ON %I AS RESTRICTIVE FOR SELECT USING (app_area_visible(%I))', tbl, col);
END $$;
--> statement-breakpoint
CALL app_enable_tenancy('companies', 'id');
--> statement-breakpoint
CALL app_enable_tenancy('roles');
--> statement-breakpoint
CALL app_enable_tenancy('admin_users');
--> statement-breakpoint
CALL app_enable_tenancy('sessions');
--> statement-breakpoint
CALL app_enable_tenancy('user_areas');
--> statement-breakpoint
CALL app_enable_tenancy('areas');
--> statement-breakpoint
CALL app_enable_area_scope('areas', 'id');
--> statement-breakpoint
CALL app_enable_tenancy('rooms');
--> statement-breakpoint
CALL app_enable_area_scope('rooms', 'area_id');
--> statement-breakpoint
CALL app_enable_tenancy('owners');
--> statement-breakpoint
-- The audit log: the app may add and read rows, never change or remove them.
ALTER TABLE audit_log ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE audit_log FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY audit_read ON audit_log FOR SELECT USING (company_id = app_company() OR app_all_companies());
--> statement-breakpoint
CREATE POLICY audit_insert ON audit_log FOR INSERT WITH CHECK (true);
--> statement-breakpoint
REVOKE UPDATE, DELETE, TRUNCATE ON audit_log FROM meter_app;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION audit_log_immutable() RETURNS trigger LANGUAGE plpgsql AS
$$ BEGIN RAISE EXCEPTION '操作日志不可修改或删除'; END $$;
--> statement-breakpoint
CREATE TRIGGER audit_log_no_change BEFORE UPDATE OR DELETE ON audit_log
  FOR EACH ROW EXECUTE FUNCTION audit_log_immutable();
