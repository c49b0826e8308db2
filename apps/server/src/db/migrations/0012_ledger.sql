CREATE TABLE "accounts" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"company_id" bigint NOT NULL,
	"owner_id" bigint NOT NULL,
	"room_id" bigint,
	"wallet" varchar(12) NOT NULL,
	"balance_fen" bigint DEFAULT 0 NOT NULL,
	"alarm_level" integer DEFAULT 0 NOT NULL,
	"status" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "journal" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"company_id" bigint NOT NULL,
	"account_id" bigint NOT NULL,
	"owner_id" bigint NOT NULL,
	"room_id" bigint,
	"wallet" varchar(12) NOT NULL,
	"kind" varchar(12) NOT NULL,
	"amount_fen" bigint NOT NULL,
	"balance_after_fen" bigint NOT NULL,
	"idempotency_key" varchar(128) NOT NULL,
	"pay_method" varchar(12) DEFAULT 'system' NOT NULL,
	"ref_type" varchar(16) DEFAULT '' NOT NULL,
	"ref_id" bigint,
	"reverses_id" bigint,
	"operator_id" bigint,
	"operator_name" varchar(64) DEFAULT '' NOT NULL,
	"memo" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "journal_audits" (
	"journal_id" bigint PRIMARY KEY NOT NULL,
	"company_id" bigint NOT NULL,
	"audited_by" bigint NOT NULL,
	"audited_by_name" varchar(64) DEFAULT '' NOT NULL,
	"memo" text DEFAULT '' NOT NULL,
	"audited_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "meter_periods" (
	"meter_id" bigint NOT NULL,
	"period_key" varchar(7) NOT NULL,
	"company_id" bigint NOT NULL,
	"quantity" numeric(16, 4) DEFAULT '0' NOT NULL,
	"exact" numeric(24, 10) DEFAULT '0' NOT NULL,
	"charged_fen" bigint DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "meter_periods_meter_id_period_key_pk" PRIMARY KEY("meter_id","period_key")
);
--> statement-breakpoint
CREATE TABLE "notifications" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"company_id" bigint NOT NULL,
	"owner_id" bigint,
	"account_id" bigint,
	"meter_id" bigint,
	"level" integer NOT NULL,
	"channel" varchar(8) NOT NULL,
	"phone" varchar(20) DEFAULT '' NOT NULL,
	"content" text NOT NULL,
	"status" varchar(8) DEFAULT 'queued' NOT NULL,
	"provider" varchar(16) DEFAULT 'log' NOT NULL,
	"price_fen" integer DEFAULT 0 NOT NULL,
	"idempotency_key" varchar(128) NOT NULL,
	"error" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "payments" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"company_id" bigint NOT NULL,
	"owner_id" bigint NOT NULL,
	"account_id" bigint NOT NULL,
	"channel" varchar(12) NOT NULL,
	"out_trade_no" varchar(64) NOT NULL,
	"amount_fen" bigint NOT NULL,
	"status" varchar(8) DEFAULT 'created' NOT NULL,
	"provider_trade_no" varchar(64) DEFAULT '' NOT NULL,
	"journal_id" bigint,
	"paid_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "receipts" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"company_id" bigint NOT NULL,
	"journal_id" bigint NOT NULL,
	"owner_id" bigint NOT NULL,
	"room_id" bigint,
	"no" varchar(32) NOT NULL,
	"items" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"amount_fen" bigint NOT NULL,
	"print_count" integer DEFAULT 0 NOT NULL,
	"last_printed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "settle_cursors" (
	"meter_id" bigint PRIMARY KEY NOT NULL,
	"company_id" bigint NOT NULL,
	"read_at" timestamp with time zone NOT NULL,
	"total" numeric(14, 2) NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "settlements" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"company_id" bigint NOT NULL,
	"meter_id" bigint NOT NULL,
	"owner_id" bigint,
	"room_id" bigint,
	"read_at" timestamp with time zone NOT NULL,
	"prev_read_at" timestamp with time zone,
	"prev_total" numeric(14, 2) NOT NULL,
	"total" numeric(14, 2) NOT NULL,
	"quantity" numeric(14, 2) NOT NULL,
	"amount_fen" bigint NOT NULL,
	"lines" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"period_key" varchar(7) NOT NULL,
	"journal_id" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "subsidy_plans" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"company_id" bigint NOT NULL,
	"room_id" bigint NOT NULL,
	"wallet" varchar(12) DEFAULT 'electric' NOT NULL,
	"amount_fen" bigint NOT NULL,
	"day_of_month" integer DEFAULT 1 NOT NULL,
	"start_month" varchar(7) NOT NULL,
	"end_month" varchar(7) DEFAULT '' NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"memo" text DEFAULT '' NOT NULL,
	"created_by" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_owner_id_owners_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."owners"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_room_id_rooms_id_fk" FOREIGN KEY ("room_id") REFERENCES "public"."rooms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "journal" ADD CONSTRAINT "journal_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "journal_audits" ADD CONSTRAINT "journal_audits_journal_id_journal_id_fk" FOREIGN KEY ("journal_id") REFERENCES "public"."journal"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meter_periods" ADD CONSTRAINT "meter_periods_meter_id_meters_id_fk" FOREIGN KEY ("meter_id") REFERENCES "public"."meters"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "settle_cursors" ADD CONSTRAINT "settle_cursors_meter_id_meters_id_fk" FOREIGN KEY ("meter_id") REFERENCES "public"."meters"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "settlements" ADD CONSTRAINT "settlements_meter_id_meters_id_fk" FOREIGN KEY ("meter_id") REFERENCES "public"."meters"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subsidy_plans" ADD CONSTRAINT "subsidy_plans_room_id_rooms_id_fk" FOREIGN KEY ("room_id") REFERENCES "public"."rooms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "accounts_owner_wallet" ON "accounts" USING btree ("owner_id","wallet");--> statement-breakpoint
CREATE INDEX "accounts_company_room" ON "accounts" USING btree ("company_id","room_id");--> statement-breakpoint
CREATE UNIQUE INDEX "journal_idempotency" ON "journal" USING btree ("company_id","idempotency_key");--> statement-breakpoint
CREATE INDEX "journal_account" ON "journal" USING btree ("account_id","id");--> statement-breakpoint
CREATE INDEX "journal_company_time" ON "journal" USING btree ("company_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "notifications_idempotency" ON "notifications" USING btree ("company_id","idempotency_key");--> statement-breakpoint
CREATE UNIQUE INDEX "payments_out_trade_no" ON "payments" USING btree ("out_trade_no");--> statement-breakpoint
CREATE UNIQUE INDEX "receipts_journal" ON "receipts" USING btree ("journal_id");--> statement-breakpoint
CREATE UNIQUE INDEX "receipts_no" ON "receipts" USING btree ("company_id","no");--> statement-breakpoint
CREATE UNIQUE INDEX "settlements_reading" ON "settlements" USING btree ("meter_id","read_at");--> statement-breakpoint
CREATE INDEX "settlements_company_time" ON "settlements" USING btree ("company_id","read_at");