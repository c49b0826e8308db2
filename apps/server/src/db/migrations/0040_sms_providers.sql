CREATE TABLE "sms_configs" (
	"company_id" bigint PRIMARY KEY NOT NULL,
	"provider" varchar(16) DEFAULT 'log' NOT NULL,
	"access_key_id" varchar(128) DEFAULT '' NOT NULL,
	"secret_enc" text DEFAULT '' NOT NULL,
	"sign_name" varchar(64) DEFAULT '' NOT NULL,
	"template_code" varchar(64) DEFAULT '' NOT NULL,
	"sdk_app_id" varchar(32) DEFAULT '' NOT NULL,
	"region" varchar(32) DEFAULT '' NOT NULL,
	"updated_by" bigint,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "next_try_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "provider_ref" varchar(64) DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "answer" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "receipt" varchar(12) DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "receipt_text" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "receipt_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "cost_fen" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- the messages sent before cost what they were priced
UPDATE "notifications" SET "cost_fen" = "price_fen" WHERE "status" = 'sent';--> statement-breakpoint
-- 短信服务商 per company: row-level security like every tenant table
CALL app_enable_tenancy('sms_configs');
