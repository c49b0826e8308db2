DROP INDEX "device_warnings_one_open";--> statement-breakpoint
CREATE INDEX "commands_meter_created" ON "commands" USING btree ("meter_id","created_at");--> statement-breakpoint
CREATE INDEX "commands_read_task" ON "commands" USING btree ("read_task_id") WHERE read_task_id IS NOT NULL;--> statement-breakpoint
CREATE INDEX "device_reports_meter_time" ON "device_reports" USING btree ("meter_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "device_warnings_one_open" ON "device_warnings" USING btree (coalesce("meter_id", 0),coalesce("collector_id", 0),"kind") WHERE status = 0;