-- Rooms, owners and move-in history (issue 3 §3, §4, §9).
-- 1. Move-in history: records written before this migration get their snapshots; area scope follows
--    the room's area at the time.
UPDATE owner_room_history h SET
  owner_name = coalesce((SELECT o.name FROM owners o WHERE o.id = h.owner_id), ''),
  owner_phone = coalesce((SELECT o.phone FROM owners o WHERE o.id = h.owner_id), ''),
  room_name = coalesce((SELECT r.name FROM rooms r WHERE r.id = h.room_id), ''),
  area_id = (SELECT r.area_id FROM rooms r WHERE r.id = h.room_id)
WHERE h.room_name = '';
--> statement-breakpoint
CALL app_enable_area_scope('owner_room_history', 'area_id');
--> statement-breakpoint
-- 2. A room holds at most one current owner.
CREATE UNIQUE INDEX IF NOT EXISTS owners_room_current ON owners (room_id) WHERE status = 1 AND room_id IS NOT NULL;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS owners_company_id ON owners (company_id, id);
--> statement-breakpoint
-- 3. Room names are unique within their area; the room list pages newest first within a company and
--    reads the area from the same index (index-only skipping for deep pages, area scope included).
CREATE UNIQUE INDEX IF NOT EXISTS rooms_area_name ON rooms (area_id, name);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS rooms_company_id ON rooms (company_id, id) INCLUDE (area_id);
--> statement-breakpoint
-- 4. Room counts per area, kept by statement-level triggers (one aggregated write per statement, so a
--    bulk INSERT … SELECT of a million rooms costs one pass). Only these triggers write the table.
CALL app_enable_tenancy('room_area_counts');
--> statement-breakpoint
REVOKE INSERT, UPDATE, DELETE, TRUNCATE ON room_area_counts FROM meter_app;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION room_counts_inserted() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $$
BEGIN
  INSERT INTO room_area_counts AS c (area_id, company_id, n)
    SELECT area_id, min(company_id), count(*) FROM new_rooms GROUP BY area_id ORDER BY area_id
  ON CONFLICT (area_id) DO UPDATE SET n = c.n + excluded.n;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION room_counts_deleted() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $$
BEGIN
  UPDATE room_area_counts c SET n = c.n - d.k
  FROM (SELECT area_id, count(*) AS k FROM old_rooms GROUP BY area_id) d
  WHERE c.area_id = d.area_id;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION room_counts_updated() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $$
BEGIN
  INSERT INTO room_area_counts AS c (area_id, company_id, n)
    SELECT area_id, min(company_id), sum(d) FROM (
      SELECT o.area_id, o.company_id, -1 AS d FROM old_rooms o JOIN new_rooms n USING (id) WHERE o.area_id IS DISTINCT FROM n.area_id
      UNION ALL
      SELECT n.area_id, n.company_id, 1 FROM old_rooms o JOIN new_rooms n USING (id) WHERE o.area_id IS DISTINCT FROM n.area_id
    ) moved GROUP BY area_id ORDER BY area_id
  ON CONFLICT (area_id) DO UPDATE SET n = c.n + excluded.n;
  RETURN NULL;
END $$;
--> statement-breakpoint
DROP TRIGGER IF EXISTS room_counts_inserted ON rooms;
--> statement-breakpoint
CREATE TRIGGER room_counts_inserted AFTER INSERT ON rooms REFERENCING NEW TABLE AS new_rooms
  FOR EACH STATEMENT EXECUTE FUNCTION room_counts_inserted();
--> statement-breakpoint
DROP TRIGGER IF EXISTS room_counts_deleted ON rooms;
--> statement-breakpoint
CREATE TRIGGER room_counts_deleted AFTER DELETE ON rooms REFERENCING OLD TABLE AS old_rooms
  FOR EACH STATEMENT EXECUTE FUNCTION room_counts_deleted();
--> statement-breakpoint
DROP TRIGGER IF EXISTS room_counts_updated ON rooms;
--> statement-breakpoint
CREATE TRIGGER room_counts_updated AFTER UPDATE ON rooms REFERENCING OLD TABLE AS old_rooms NEW TABLE AS new_rooms
  FOR EACH STATEMENT EXECUTE FUNCTION room_counts_updated();
--> statement-breakpoint
DELETE FROM room_area_counts;
--> statement-breakpoint
INSERT INTO room_area_counts (area_id, company_id, n)
  SELECT area_id, min(company_id), count(*) FROM rooms GROUP BY area_id;
