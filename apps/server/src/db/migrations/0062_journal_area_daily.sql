-- /home's money per area and China day (issue 16 item 9), for a search by area and for users bound to
-- areas. journal_daily has a row a room a day, and /home picked the rooms of the areas out of it (28 s at
-- 100,000 rooms). Rooms belong to areas of a tree and may move: the rows here are per room's own area
-- (a leaf or not), /home sums the areas of the subtree it searches (or the areas the user sees: the table
-- carries the rooms' area scope), so re-parenting an area changes nothing here.
-- Kept like journal_company_daily (0058): the journal's statement trigger appends what a statement adds
-- per company, day, room's area, kind and pay method to journal_area_delta; the billing.rollups job
-- moves the deltas into journal_area_daily; /home reads both.
-- A room that moves to another area (or is deleted: its journal rows then leave every area, as they left
-- the rooms /home picked) takes its journal_daily sums with it: the rooms' statement trigger appends
-- them with −1 to the old area and +1 to the new one. It first takes SHARE on the journal, which waits
-- for every transaction writing the journal to end and holds new writers until the move commits, so a
-- posting is either in journal_daily when the move reads it (and moved with it) or read the room's new
-- area (or no room) itself. Moves are rare; postings never lock rooms.
CREATE TABLE "journal_area_delta" (
	"company_id" bigint NOT NULL,
	"day" date NOT NULL,
	"area_id" bigint NOT NULL,
	"kind" varchar(12) NOT NULL,
	"pay_method" varchar(12) NOT NULL,
	"entries" integer NOT NULL,
	"amount_fen" bigint NOT NULL
);
--> statement-breakpoint
CREATE INDEX "journal_area_delta_company_day" ON "journal_area_delta" ("company_id", "day");
--> statement-breakpoint
CREATE TABLE "journal_area_daily" (
	"company_id" bigint NOT NULL,
	"day" date NOT NULL,
	"area_id" bigint NOT NULL,
	"kind" varchar(12) NOT NULL,
	"pay_method" varchar(12) NOT NULL,
	"entries" bigint DEFAULT 0 NOT NULL,
	"amount_fen" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "journal_area_daily_pk" PRIMARY KEY ("company_id", "day", "area_id", "kind", "pay_method")
);
--> statement-breakpoint
-- a moved room's rows
CREATE INDEX "journal_daily_room" ON "journal_daily" ("room_id");
--> statement-breakpoint
CALL app_enable_tenancy('journal_area_delta');
--> statement-breakpoint
CALL app_enable_tenancy('journal_area_daily');
--> statement-breakpoint
CALL app_enable_area_scope('journal_area_delta', 'area_id');
--> statement-breakpoint
CALL app_enable_area_scope('journal_area_daily', 'area_id');
--> statement-breakpoint
REVOKE DELETE, TRUNCATE ON journal_area_daily FROM meter_app;
--> statement-breakpoint
REVOKE UPDATE, TRUNCATE ON journal_area_delta FROM meter_app;
--> statement-breakpoint
-- the rooms' areas, whoever posts (a user bound to areas, the system): the journal's trigger runs as the caller
CREATE OR REPLACE FUNCTION app_room_areas(ids bigint[]) RETURNS TABLE (room_id bigint, area_id bigint)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public SET app.all_companies = 'on' SET app.area_ids = '' AS $$
  SELECT r.id, r.area_id FROM rooms r WHERE r.id = ANY (ids)
$$;
--> statement-breakpoint
REVOKE EXECUTE ON FUNCTION app_room_areas(bigint[]) FROM PUBLIC;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION app_room_areas(bigint[]) TO meter_app;
--> statement-breakpoint
-- no posting while the function is replaced and the area rows are built from journal_daily
LOCK TABLE journal IN SHARE MODE;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION journal_rollup() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format($q$
    INSERT INTO journal_daily AS d (company_id, day, room_id, kind, pay_method, entries, amount_fen)
      SELECT j.company_id, (j.created_at AT TIME ZONE 'Asia/Shanghai')::date, coalesce(j.room_id, 0), j.kind, j.pay_method, sum(j.sign), sum(j.sign * j.amount_fen)
      FROM (%s) j GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5
    ON CONFLICT (company_id, day, room_id, kind, pay_method) DO UPDATE
      SET entries = d.entries + excluded.entries, amount_fen = d.amount_fen + excluded.amount_fen$q$,
    rollup_source(TG_OP));
  EXECUTE format($q$
    INSERT INTO journal_company_delta (company_id, day, kind, pay_method, entries, amount_fen)
      SELECT j.company_id, (j.created_at AT TIME ZONE 'Asia/Shanghai')::date, j.kind, j.pay_method, sum(j.sign), sum(j.sign * j.amount_fen)
      FROM (%s) j GROUP BY 1, 2, 3, 4$q$,
    rollup_source(TG_OP));
  EXECUTE format($q$
    WITH j AS (%s)
    INSERT INTO journal_area_delta (company_id, day, area_id, kind, pay_method, entries, amount_fen)
      SELECT j.company_id, (j.created_at AT TIME ZONE 'Asia/Shanghai')::date, ra.area_id, j.kind, j.pay_method, sum(j.sign), sum(j.sign * j.amount_fen)
      FROM j JOIN app_room_areas(ARRAY(SELECT DISTINCT j.room_id FROM j WHERE j.room_id IS NOT NULL)) ra ON ra.room_id = j.room_id
      GROUP BY 1, 2, 3, 4, 5$q$,
    rollup_source(TG_OP));
  RETURN NULL;
END $$;
--> statement-breakpoint
-- the rooms' moves (−1 from the old area, +1 to the new one) or deletions (−1), as journal_area_delta rows
CREATE OR REPLACE FUNCTION journal_area_move(moves jsonb) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public SET app.all_companies = 'on' SET app.area_ids = '' AS $$
BEGIN
  IF jsonb_array_length(moves) = 0 THEN RETURN; END IF;
  LOCK TABLE journal IN SHARE MODE;
  -- a new statement, a new snapshot: every posting that ran before the lock has committed (or rolled back)
  INSERT INTO journal_area_delta (company_id, day, area_id, kind, pay_method, entries, amount_fen)
    SELECT d.company_id, d.day, m.area_id, d.kind, d.pay_method, sum(m.sign * d.entries), sum(m.sign * d.amount_fen)
    FROM jsonb_to_recordset(moves) AS m (room_id bigint, area_id bigint, sign int) JOIN journal_daily d ON d.room_id = m.room_id
    GROUP BY 1, 2, 3, 4, 5 HAVING sum(m.sign * d.entries) <> 0 OR sum(m.sign * d.amount_fen) <> 0;
END $$;
--> statement-breakpoint
REVOKE EXECUTE ON FUNCTION journal_area_move(jsonb) FROM PUBLIC;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION journal_area_room_moved() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $$
BEGIN
  PERFORM journal_area_move(coalesce((SELECT jsonb_agg(jsonb_build_object('room_id', m.id, 'area_id', m.area_id, 'sign', m.sign))
    FROM (SELECT o.id, o.area_id, -1 AS sign FROM old_rooms o JOIN new_rooms n ON n.id = o.id WHERE n.area_id IS DISTINCT FROM o.area_id
      UNION ALL SELECT n.id, n.area_id, 1 FROM old_rooms o JOIN new_rooms n ON n.id = o.id WHERE n.area_id IS DISTINCT FROM o.area_id) m), '[]'));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION journal_area_room_deleted() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $$
BEGIN
  PERFORM journal_area_move(coalesce((SELECT jsonb_agg(jsonb_build_object('room_id', o.id, 'area_id', o.area_id, 'sign', -1)) FROM old_rooms o), '[]'));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER journal_area_room_moved AFTER UPDATE ON rooms REFERENCING OLD TABLE AS old_rooms NEW TABLE AS new_rooms
  FOR EACH STATEMENT EXECUTE FUNCTION journal_area_room_moved();
--> statement-breakpoint
CREATE TRIGGER journal_area_room_deleted AFTER DELETE ON rooms REFERENCING OLD TABLE AS old_rooms
  FOR EACH STATEMENT EXECUTE FUNCTION journal_area_room_deleted();
--> statement-breakpoint
SELECT set_config('app.all_companies', 'on', true);
--> statement-breakpoint
INSERT INTO journal_area_daily (company_id, day, area_id, kind, pay_method, entries, amount_fen)
  SELECT d.company_id, d.day, r.area_id, d.kind, d.pay_method, sum(d.entries), sum(d.amount_fen)
  FROM journal_daily d JOIN rooms r ON r.id = d.room_id GROUP BY 1, 2, 3, 4, 5;
