-- A meter's charging and alarm schemes become foreign keys (the in-use checks of a scheme's delete stay;
-- the keys close the race between such a check and a meter being pointed at the scheme). A reference
-- to a scheme that no longer exists could not be priced anyway: it is cleared first.
UPDATE "meters" m SET "charging_scheme_id" = NULL WHERE "charging_scheme_id" IS NOT NULL AND NOT EXISTS (SELECT 1 FROM "charging_schemes" s WHERE s."id" = m."charging_scheme_id");--> statement-breakpoint
UPDATE "meters" m SET "alarm_scheme_id" = NULL WHERE "alarm_scheme_id" IS NOT NULL AND NOT EXISTS (SELECT 1 FROM "alarm_schemes" s WHERE s."id" = m."alarm_scheme_id");--> statement-breakpoint
ALTER TABLE "meters" ADD CONSTRAINT "meters_charging_scheme_id_charging_schemes_id_fk" FOREIGN KEY ("charging_scheme_id") REFERENCES "public"."charging_schemes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meters" ADD CONSTRAINT "meters_alarm_scheme_id_alarm_schemes_id_fk" FOREIGN KEY ("alarm_scheme_id") REFERENCES "public"."alarm_schemes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "meters_charging_scheme" ON "meters" USING btree ("charging_scheme_id");--> statement-breakpoint
CREATE INDEX "meters_alarm_scheme" ON "meters" USING btree ("alarm_scheme_id");