-- Tenancy for the archive tables (DESIGN §5). Device lookups are a platform dictionary.
CALL app_enable_tenancy('owner_room_history');
--> statement-breakpoint
CALL app_enable_tenancy('area_permissions');
--> statement-breakpoint
CALL app_enable_tenancy('collectors');
--> statement-breakpoint
CALL app_enable_area_scope('collectors', 'area_id');
--> statement-breakpoint
CALL app_enable_tenancy('meters');
--> statement-breakpoint
CALL app_enable_area_scope('meters', 'area_id');
--> statement-breakpoint
CALL app_enable_tenancy('focus_devices');
--> statement-breakpoint
CALL app_enable_tenancy('charging_types');
--> statement-breakpoint
CALL app_enable_tenancy('charging_schemes');
--> statement-breakpoint
CALL app_enable_tenancy('charging_scheme_versions');
--> statement-breakpoint
CALL app_enable_tenancy('company_charge_codes');
--> statement-breakpoint
CALL app_enable_tenancy('alarm_schemes');
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS rooms_company_name ON rooms (company_id, name);
