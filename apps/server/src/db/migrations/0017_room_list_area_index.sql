-- The room list pages in (area_id, id) order: a page is a slice of one or two areas read with an
-- offset inside the area (per-area counts from room_area_counts), and filtered lists sort the same way.
CREATE INDEX IF NOT EXISTS rooms_company_area_id ON rooms (company_id, area_id, id);
--> statement-breakpoint
DROP INDEX IF EXISTS rooms_company_id;
