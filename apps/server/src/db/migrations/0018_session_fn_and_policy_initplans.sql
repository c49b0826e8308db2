-- 1. Session lookup in one round trip: the live session, its user and role, and the user's visible
--    areas (NULL = unrestricted). Runs with the platform flag on for its own statement only.
CREATE OR REPLACE FUNCTION app_session(p_token_hash text, p_idle_minutes int)
RETURNS TABLE (session_id bigint, user_id bigint, username text, real_name text, company_id bigint,
               role_id bigint, access int, user_type int, routes text[], operations text[], area_ids bigint[])
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $$
DECLARE
  prev text := coalesce(current_setting('app.all_companies', true), '');
  s record;
  areas bigint[];
BEGIN
  PERFORM set_config('app.all_companies', 'on', true);
  SELECT ss.id AS sid, ss.last_seen_at, u.id AS uid, u.username, u.real_name, u.company_id, u.role_id,
         u.access, u.user_type, r.routes, r.operations
    INTO s
    FROM sessions ss
    JOIN admin_users u ON u.id = ss.user_id AND u.status = 1
    LEFT JOIN roles r ON r.id = u.role_id
   WHERE ss.token_hash = p_token_hash AND ss.revoked_at IS NULL AND ss.expires_at > now()
     AND ss.last_seen_at > now() - make_interval(mins => p_idle_minutes);
  IF FOUND THEN
    -- keep the idle clock accurate to the half minute without a write per request
    IF s.last_seen_at < now() - interval '30 seconds' THEN
      UPDATE sessions SET last_seen_at = now() WHERE id = s.sid;
    END IF;
    IF s.access <> 0 AND EXISTS (SELECT 1 FROM user_areas WHERE user_areas.user_id = s.uid) THEN
      WITH RECURSIVE t AS (
        SELECT a.id FROM areas a JOIN user_areas ua ON ua.area_id = a.id WHERE ua.user_id = s.uid
        UNION SELECT a.id FROM areas a JOIN t ON a.parent_id = t.id)
      SELECT array_agg(id) INTO areas FROM t;
      areas := coalesce(areas, ARRAY[]::bigint[]);
    END IF;
    session_id := s.sid; user_id := s.uid; username := s.username; real_name := s.real_name;
    company_id := s.company_id; role_id := s.role_id; access := s.access; user_type := s.user_type;
    routes := s.routes; operations := s.operations; area_ids := areas;
    RETURN NEXT;
  END IF;
  PERFORM set_config('app.all_companies', prev, true);
END $$;
--> statement-breakpoint
REVOKE ALL ON FUNCTION app_session(text, int) FROM PUBLIC;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION app_session(text, int) TO meter_app;
--> statement-breakpoint
-- 2. Policies evaluate the scope once per query (an initplan), not once per row.
CREATE OR REPLACE FUNCTION app_area_all() RETURNS boolean LANGUAGE sql STABLE PARALLEL SAFE AS
$$ SELECT nullif(current_setting('app.area_ids', true), '') IS NULL $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION app_area_ids() RETURNS bigint[] LANGUAGE sql STABLE PARALLEL SAFE AS
$$ SELECT string_to_array(nullif(current_setting('app.area_ids', true), ''), ',')::bigint[] $$;
--> statement-breakpoint
CREATE OR REPLACE PROCEDURE app_enable_tenancy(tbl text, col text DEFAULT 'company_id') LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', tbl);
  EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', tbl);
  EXECUTE format('DROP POLICY IF EXISTS tenant ON %I', tbl);
  EXECUTE format('CREATE POLICY tenant ON %I USING (%I = (SELECT app_company()) OR (SELECT app_all_companies())) '
              || 'WITH CHECK (%I = (SELECT app_company()) OR (SELECT app_all_companies()))', tbl, col, col);
END $$;
--> statement-breakpoint
CREATE OR REPLACE PROCEDURE app_enable_area_scope(tbl text, col text) LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format('DROP POLICY IF EXISTS area_scope ON %I', tbl);
  EXECUTE format('CREATE POLICY area_scope ON %I AS RESTRICTIVE FOR SELECT USING ((SELECT app_area_all()) OR %I = ANY ((SELECT app_area_ids())::bigint[]))', tbl, col);
END $$;
--> statement-breakpoint
DO $$
DECLARE p record;
BEGIN
  FOR p IN SELECT tablename, qual FROM pg_policies WHERE schemaname = 'public' AND policyname = 'tenant' LOOP
    CALL app_enable_tenancy(p.tablename, (regexp_match(p.qual, '^\(*(\w+) = '))[1]);
  END LOOP;
  FOR p IN SELECT tablename, qual FROM pg_policies WHERE schemaname = 'public' AND policyname = 'area_scope' LOOP
    CALL app_enable_area_scope(p.tablename, (regexp_match(p.qual, 'app_area_visible\((\w+)\)'))[1]);
  END LOOP;
END $$;
