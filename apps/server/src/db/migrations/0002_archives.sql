CREATE TABLE "area_permissions" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"company_id" bigint NOT NULL,
	"name" varchar(64) NOT NULL,
	"area_ids" bigint[] DEFAULT '{}' NOT NULL,
	"status" integer DEFAULT 1 NOT NULL,
	"memo" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "owner_room_history" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"company_id" bigint NOT NULL,
	"owner_id" bigint NOT NULL,
	"room_id" bigint NOT NULL,
	"action" integer NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"operator_id" bigint,
	"operator_name" varchar(64) DEFAULT '' NOT NULL,
	"memo" text DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "collectors" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"company_id" bigint NOT NULL,
	"area_id" bigint,
	"name" varchar(64) NOT NULL,
	"imei" varchar(32) NOT NULL,
	"plan" integer DEFAULT 0 NOT NULL,
	"sim_no" varchar(32) DEFAULT '' NOT NULL,
	"install_address" text DEFAULT '' NOT NULL,
	"online" boolean DEFAULT false NOT NULL,
	"last_seen_at" timestamp with time zone,
	"memo" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "device_lookups" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"kind" varchar(16) NOT NULL,
	"name" varchar(64) NOT NULL,
	"code" varchar(32) DEFAULT '' NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"memo" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "focus_devices" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"company_id" bigint NOT NULL,
	"meter_id" bigint NOT NULL,
	"memo" text DEFAULT '' NOT NULL,
	"created_by" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "meters" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"company_id" bigint NOT NULL,
	"room_id" bigint,
	"area_id" bigint,
	"collector_id" bigint,
	"name" varchar(64) DEFAULT '' NOT NULL,
	"kind" integer NOT NULL,
	"plan" integer NOT NULL,
	"address" varchar(16) NOT NULL,
	"imei" varchar(32) DEFAULT '' NOT NULL,
	"protocol_id" bigint,
	"baud_id" bigint,
	"phase_id" bigint,
	"gateway_id" bigint,
	"port_id" bigint,
	"brand_id" bigint,
	"caliber_id" bigint,
	"type_id" bigint,
	"multiplier" numeric(10, 2) DEFAULT '1' NOT NULL,
	"charging_scheme_id" bigint,
	"alarm_scheme_id" bigint,
	"initial_reading" numeric(14, 2) DEFAULT '0' NOT NULL,
	"install_date" varchar(10) DEFAULT '' NOT NULL,
	"status" integer DEFAULT 1 NOT NULL,
	"online" boolean DEFAULT false NOT NULL,
	"valve_state" integer,
	"last_seen_at" timestamp with time zone,
	"memo" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "alarm_schemes" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"company_id" bigint NOT NULL,
	"name" varchar(64) NOT NULL,
	"kind" integer DEFAULT 1 NOT NULL,
	"alarm1_fen" integer DEFAULT 2000 NOT NULL,
	"alarm2_fen" integer DEFAULT 1000 NOT NULL,
	"close_fen" integer DEFAULT 0 NOT NULL,
	"overdraft_fen" integer DEFAULT 0 NOT NULL,
	"notify_sms" boolean DEFAULT true NOT NULL,
	"notify_phone" boolean DEFAULT false NOT NULL,
	"no_close_start" varchar(5) DEFAULT '' NOT NULL,
	"no_close_end" varchar(5) DEFAULT '' NOT NULL,
	"no_close_weekend" boolean DEFAULT false NOT NULL,
	"status" integer DEFAULT 1 NOT NULL,
	"memo" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "charging_scheme_versions" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"company_id" bigint NOT NULL,
	"scheme_id" bigint NOT NULL,
	"effective_from" timestamp with time zone NOT NULL,
	"mode" varchar(8) DEFAULT 'flat' NOT NULL,
	"unit_price" numeric(12, 4) DEFAULT '0' NOT NULL,
	"tiers" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"tou" jsonb DEFAULT '{"periods":[]}'::jsonb NOT NULL,
	"monthly_fee_fen" integer DEFAULT 0 NOT NULL,
	"minimum_charge_fen" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "charging_schemes" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"company_id" bigint NOT NULL,
	"name" varchar(64) NOT NULL,
	"kind" integer DEFAULT 1 NOT NULL,
	"charging_month_type" integer,
	"status" integer DEFAULT 1 NOT NULL,
	"memo" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "charging_types" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"company_id" bigint NOT NULL,
	"name" varchar(64) NOT NULL,
	"charge_type" integer DEFAULT 1 NOT NULL,
	"status" integer DEFAULT 1 NOT NULL,
	"memo" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "company_charge_codes" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"company_id" bigint NOT NULL,
	"code" varchar(32) NOT NULL,
	"name" varchar(64) NOT NULL,
	"scheme_type" integer DEFAULT 1 NOT NULL,
	"amount_fen" integer DEFAULT 0 NOT NULL,
	"memo" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "collector_plans" integer[] DEFAULT '{}' NOT NULL;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "electric_plans" integer[] DEFAULT '{}' NOT NULL;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "water_plans" integer[] DEFAULT '{}' NOT NULL;--> statement-breakpoint
ALTER TABLE "owners" ADD COLUMN "gender" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "owners" ADD COLUMN "email" varchar(64) DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "owners" ADD COLUMN "password_hash" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "owners" ADD COLUMN "moved_in_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "owners" ADD COLUMN "memo" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "rooms" ADD COLUMN "status" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "owner_room_history" ADD CONSTRAINT "owner_room_history_owner_id_owners_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."owners"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "owner_room_history" ADD CONSTRAINT "owner_room_history_room_id_rooms_id_fk" FOREIGN KEY ("room_id") REFERENCES "public"."rooms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "collectors" ADD CONSTRAINT "collectors_area_id_areas_id_fk" FOREIGN KEY ("area_id") REFERENCES "public"."areas"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "focus_devices" ADD CONSTRAINT "focus_devices_meter_id_meters_id_fk" FOREIGN KEY ("meter_id") REFERENCES "public"."meters"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meters" ADD CONSTRAINT "meters_room_id_rooms_id_fk" FOREIGN KEY ("room_id") REFERENCES "public"."rooms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meters" ADD CONSTRAINT "meters_area_id_areas_id_fk" FOREIGN KEY ("area_id") REFERENCES "public"."areas"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meters" ADD CONSTRAINT "meters_collector_id_collectors_id_fk" FOREIGN KEY ("collector_id") REFERENCES "public"."collectors"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meters" ADD CONSTRAINT "meters_protocol_id_device_lookups_id_fk" FOREIGN KEY ("protocol_id") REFERENCES "public"."device_lookups"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meters" ADD CONSTRAINT "meters_baud_id_device_lookups_id_fk" FOREIGN KEY ("baud_id") REFERENCES "public"."device_lookups"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meters" ADD CONSTRAINT "meters_phase_id_device_lookups_id_fk" FOREIGN KEY ("phase_id") REFERENCES "public"."device_lookups"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meters" ADD CONSTRAINT "meters_gateway_id_device_lookups_id_fk" FOREIGN KEY ("gateway_id") REFERENCES "public"."device_lookups"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meters" ADD CONSTRAINT "meters_port_id_device_lookups_id_fk" FOREIGN KEY ("port_id") REFERENCES "public"."device_lookups"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meters" ADD CONSTRAINT "meters_brand_id_device_lookups_id_fk" FOREIGN KEY ("brand_id") REFERENCES "public"."device_lookups"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meters" ADD CONSTRAINT "meters_caliber_id_device_lookups_id_fk" FOREIGN KEY ("caliber_id") REFERENCES "public"."device_lookups"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meters" ADD CONSTRAINT "meters_type_id_device_lookups_id_fk" FOREIGN KEY ("type_id") REFERENCES "public"."device_lookups"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "charging_scheme_versions" ADD CONSTRAINT "charging_scheme_versions_scheme_id_charging_schemes_id_fk" FOREIGN KEY ("scheme_id") REFERENCES "public"."charging_schemes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "owner_room_history_room" ON "owner_room_history" USING btree ("company_id","room_id");--> statement-breakpoint
CREATE UNIQUE INDEX "collectors_imei" ON "collectors" USING btree ("imei");--> statement-breakpoint
CREATE INDEX "collectors_company_area" ON "collectors" USING btree ("company_id","area_id");--> statement-breakpoint
CREATE UNIQUE INDEX "device_lookups_kind_name" ON "device_lookups" USING btree ("kind","name");--> statement-breakpoint
CREATE UNIQUE INDEX "focus_devices_meter" ON "focus_devices" USING btree ("company_id","meter_id");--> statement-breakpoint
CREATE UNIQUE INDEX "meters_address" ON "meters" USING btree ("address");--> statement-breakpoint
CREATE INDEX "meters_company_area" ON "meters" USING btree ("company_id","area_id");--> statement-breakpoint
CREATE INDEX "meters_room" ON "meters" USING btree ("room_id");--> statement-breakpoint
CREATE INDEX "meters_collector" ON "meters" USING btree ("collector_id");--> statement-breakpoint
CREATE UNIQUE INDEX "alarm_schemes_company_name" ON "alarm_schemes" USING btree ("company_id","name");--> statement-breakpoint
CREATE UNIQUE INDEX "charging_scheme_versions_scheme_from" ON "charging_scheme_versions" USING btree ("scheme_id","effective_from");--> statement-breakpoint
CREATE UNIQUE INDEX "charging_schemes_company_name" ON "charging_schemes" USING btree ("company_id","name");--> statement-breakpoint
CREATE UNIQUE INDEX "charging_types_company_name" ON "charging_types" USING btree ("company_id","name");--> statement-breakpoint
CREATE UNIQUE INDEX "company_charge_codes_code" ON "company_charge_codes" USING btree ("company_id","code");