CREATE TABLE "commands" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"company_id" bigint NOT NULL,
	"meter_id" bigint,
	"collector_id" bigint,
	"kind" varchar(16) NOT NULL,
	"payload" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"status" varchar(12) DEFAULT 'queued' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"max_attempts" integer DEFAULT 3 NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"requested_by" bigint,
	"requester_name" varchar(64) DEFAULT '' NOT NULL,
	"origin" integer DEFAULT 1 NOT NULL,
	"memo" text DEFAULT '' NOT NULL,
	"override_reason" text DEFAULT '' NOT NULL,
	"reply" jsonb,
	"error" text DEFAULT '' NOT NULL,
	"read_task_id" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "company_third" (
	"company_id" bigint PRIMARY KEY NOT NULL,
	"config" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "device_reports" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"company_id" bigint NOT NULL,
	"meter_id" bigint,
	"collector_id" bigint,
	"direction" varchar(4) NOT NULL,
	"channel" varchar(8) NOT NULL,
	"hex" text NOT NULL,
	"decoded" jsonb,
	"error" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "device_warnings" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"company_id" bigint NOT NULL,
	"meter_id" bigint,
	"collector_id" bigint,
	"area_id" bigint,
	"kind" varchar(24) NOT NULL,
	"detail" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"status" integer DEFAULT 0 NOT NULL,
	"handled_by" bigint,
	"handled_at" timestamp with time zone,
	"handle_memo" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "meter_configs" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"company_id" bigint NOT NULL,
	"meter_id" bigint NOT NULL,
	"op" varchar(4) NOT NULL,
	"params" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"command_id" bigint,
	"created_by" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "meter_latest" (
	"meter_id" bigint PRIMARY KEY NOT NULL,
	"company_id" bigint NOT NULL,
	"read_at" timestamp with time zone NOT NULL,
	"total" numeric(14, 2) NOT NULL,
	"registers" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"source" integer NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "protections" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"company_id" bigint NOT NULL,
	"meter_id" bigint NOT NULL,
	"kind" integer NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"reason" text DEFAULT '' NOT NULL,
	"start_at" timestamp with time zone DEFAULT now() NOT NULL,
	"end_at" timestamp with time zone,
	"created_by" bigint,
	"ended_by" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "read_tasks" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"company_id" bigint NOT NULL,
	"origin" integer DEFAULT 1 NOT NULL,
	"total" integer DEFAULT 0 NOT NULL,
	"succeeded" integer DEFAULT 0 NOT NULL,
	"failed" integer DEFAULT 0 NOT NULL,
	"status" varchar(12) DEFAULT 'running' NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	"requested_by" bigint
);
--> statement-breakpoint
CREATE SEQUENCE IF NOT EXISTS readings_id_seq;
--> statement-breakpoint
CREATE TABLE "readings" (
	"id" bigint DEFAULT nextval('readings_id_seq') NOT NULL,
	"company_id" bigint NOT NULL,
	"meter_id" bigint NOT NULL,
	"read_at" timestamp with time zone NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"source" integer NOT NULL,
	"total" numeric(14, 2) NOT NULL,
	"registers" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"exception" varchar(16) DEFAULT '' NOT NULL,
	"command_id" bigint,
	"operator_id" bigint,
	CONSTRAINT "readings_meter_id_read_at_pk" PRIMARY KEY("meter_id","read_at")
) PARTITION BY RANGE ("read_at");
--> statement-breakpoint
CREATE TABLE "timed_controls" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"company_id" bigint NOT NULL,
	"meter_id" bigint NOT NULL,
	"action" varchar(8) NOT NULL,
	"repeat" varchar(8) DEFAULT 'once' NOT NULL,
	"run_at" timestamp with time zone,
	"time_of_day" varchar(5) DEFAULT '' NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"last_run_at" timestamp with time zone,
	"memo" text DEFAULT '' NOT NULL,
	"created_by" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "commands" ADD CONSTRAINT "commands_meter_id_meters_id_fk" FOREIGN KEY ("meter_id") REFERENCES "public"."meters"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "commands" ADD CONSTRAINT "commands_collector_id_collectors_id_fk" FOREIGN KEY ("collector_id") REFERENCES "public"."collectors"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_warnings" ADD CONSTRAINT "device_warnings_meter_id_meters_id_fk" FOREIGN KEY ("meter_id") REFERENCES "public"."meters"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_warnings" ADD CONSTRAINT "device_warnings_collector_id_collectors_id_fk" FOREIGN KEY ("collector_id") REFERENCES "public"."collectors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meter_configs" ADD CONSTRAINT "meter_configs_meter_id_meters_id_fk" FOREIGN KEY ("meter_id") REFERENCES "public"."meters"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meter_latest" ADD CONSTRAINT "meter_latest_meter_id_meters_id_fk" FOREIGN KEY ("meter_id") REFERENCES "public"."meters"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "protections" ADD CONSTRAINT "protections_meter_id_meters_id_fk" FOREIGN KEY ("meter_id") REFERENCES "public"."meters"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "timed_controls" ADD CONSTRAINT "timed_controls_meter_id_meters_id_fk" FOREIGN KEY ("meter_id") REFERENCES "public"."meters"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "commands_company_created" ON "commands" USING btree ("company_id","created_at");--> statement-breakpoint
CREATE INDEX "commands_pending" ON "commands" USING btree ("status","next_attempt_at") WHERE status IN ('queued', 'sent');--> statement-breakpoint
CREATE UNIQUE INDEX "commands_one_pending" ON "commands" USING btree ("meter_id","kind") WHERE status IN ('queued', 'sent');--> statement-breakpoint
CREATE INDEX "device_reports_company_time" ON "device_reports" USING btree ("company_id","created_at");--> statement-breakpoint
CREATE INDEX "device_warnings_company_kind" ON "device_warnings" USING btree ("company_id","kind","status");--> statement-breakpoint
CREATE UNIQUE INDEX "device_warnings_one_open" ON "device_warnings" USING btree ("meter_id","collector_id","kind") WHERE status = 0;--> statement-breakpoint
CREATE INDEX "meter_configs_meter" ON "meter_configs" USING btree ("meter_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "protections_one_active" ON "protections" USING btree ("meter_id") WHERE active;