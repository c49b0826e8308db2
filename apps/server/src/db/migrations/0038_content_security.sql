-- Tenancy for the notice/appeal/work-order types and the appeals (DESIGN §5); an appeal's history is
-- append-only and appeals are never deleted by the app; states and kinds are checked by the database too.
CALL app_enable_tenancy('notice_types');
--> statement-breakpoint
CALL app_enable_tenancy('appeal_types');
--> statement-breakpoint
CALL app_enable_tenancy('work_order_types');
--> statement-breakpoint
CALL app_enable_tenancy('appeals');
--> statement-breakpoint
CALL app_enable_tenancy('appeal_events');
--> statement-breakpoint
REVOKE UPDATE, DELETE, TRUNCATE ON appeal_events FROM meter_app;
--> statement-breakpoint
REVOKE DELETE, TRUNCATE ON appeals FROM meter_app;
--> statement-breakpoint
ALTER TABLE appeals ADD CONSTRAINT appeals_kind_valid CHECK (kind IN (1, 2));
--> statement-breakpoint
ALTER TABLE appeals ADD CONSTRAINT appeals_status_valid CHECK (status IN (0, 1, 2, 3));
--> statement-breakpoint
ALTER TABLE appeal_types ADD CONSTRAINT appeal_types_limit_positive CHECK (limit_hours > 0);
--> statement-breakpoint
ALTER TABLE work_order_types ADD CONSTRAINT work_order_types_limit_positive CHECK (limit_hours > 0);
--> statement-breakpoint
-- the built-in company administrator roles hold every operation key, the new 增值服务 ones too
UPDATE roles SET operations = ARRAY(SELECT DISTINCT unnest(operations || ARRAY['appeal.create', 'appeal.handle', 'content.types']))
  WHERE builtin;
