CREATE TABLE "company_merchants" (
	"company_id" bigint PRIMARY KEY NOT NULL,
	"wx_enabled" boolean DEFAULT false NOT NULL,
	"wx_mchid" varchar(32) DEFAULT '' NOT NULL,
	"wx_appid" varchar(64) DEFAULT '' NOT NULL,
	"wx_serial_no" varchar(64) DEFAULT '' NOT NULL,
	"wx_private_key_enc" text DEFAULT '' NOT NULL,
	"wx_platform_serial" varchar(128) DEFAULT '' NOT NULL,
	"wx_platform_key" text DEFAULT '' NOT NULL,
	"wx_apiv3_key_enc" text DEFAULT '' NOT NULL,
	"ali_enabled" boolean DEFAULT false NOT NULL,
	"ali_app_id" varchar(32) DEFAULT '' NOT NULL,
	"ali_seller_id" varchar(32) DEFAULT '' NOT NULL,
	"ali_private_key_enc" text DEFAULT '' NOT NULL,
	"ali_public_key" text DEFAULT '' NOT NULL,
	"updated_by" bigint,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "merchant_company_id" bigint;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "pay_gears" integer[] DEFAULT '{}' NOT NULL;--> statement-breakpoint
-- 支付商户 per company: row-level security like every tenant table
CALL app_enable_tenancy('company_merchants');
