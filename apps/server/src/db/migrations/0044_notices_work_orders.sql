-- 系统公告 (platform → companies), 物业公告 (company → owners) with their reads, and 设备工单 (appeals
-- kind 3) opened by device exceptions: one open order per device and exception (unique partial index).
CREATE TABLE "system_notices" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"category" smallint DEFAULT 1 NOT NULL,
	"title" varchar(100) NOT NULL,
	"content" text DEFAULT '' NOT NULL,
	"status" smallint DEFAULT 0 NOT NULL,
	"pinned" boolean DEFAULT false NOT NULL,
	"published_at" timestamp with time zone,
	"withdrawn_at" timestamp with time zone,
	"created_by_id" bigint,
	"created_by_name" varchar(64) DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "system_notices_status_valid" CHECK (status IN (0, 1, 2))
);
--> statement-breakpoint
CREATE INDEX "system_notices_status" ON "system_notices" USING btree ("status", "published_at");
--> statement-breakpoint
CREATE TABLE "system_notice_reads" (
	"notice_id" bigint NOT NULL REFERENCES "system_notices"("id") ON DELETE cascade,
	"user_id" bigint NOT NULL,
	"company_id" bigint NOT NULL,
	"read_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "system_notice_reads_notice_id_user_id_pk" PRIMARY KEY("notice_id", "user_id")
);
--> statement-breakpoint
CREATE INDEX "system_notice_reads_company" ON "system_notice_reads" USING btree ("company_id", "notice_id");
--> statement-breakpoint
CREATE TABLE "notices" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"company_id" bigint NOT NULL,
	"type_id" bigint,
	"type_name" varchar(64) DEFAULT '' NOT NULL,
	"title" varchar(100) NOT NULL,
	"content" text DEFAULT '' NOT NULL,
	"area_ids" bigint[] DEFAULT '{}'::bigint[] NOT NULL,
	"status" smallint DEFAULT 0 NOT NULL,
	"pinned" boolean DEFAULT false NOT NULL,
	"send_sms" boolean DEFAULT false NOT NULL,
	"sms_count" integer DEFAULT 0 NOT NULL,
	"published_at" timestamp with time zone,
	"withdrawn_at" timestamp with time zone,
	"created_by_id" bigint,
	"created_by_name" varchar(64) DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "notices_status_valid" CHECK (status IN (0, 1, 2))
);
--> statement-breakpoint
CREATE INDEX "notices_company_status" ON "notices" USING btree ("company_id", "status", "published_at");
--> statement-breakpoint
CREATE TABLE "notice_reads" (
	"notice_id" bigint NOT NULL REFERENCES "notices"("id") ON DELETE cascade,
	"owner_id" bigint NOT NULL,
	"company_id" bigint NOT NULL,
	"read_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "notice_reads_notice_id_owner_id_pk" PRIMARY KEY("notice_id", "owner_id")
);
--> statement-breakpoint
CALL app_enable_tenancy('system_notice_reads');
--> statement-breakpoint
CALL app_enable_tenancy('notices');
--> statement-breakpoint
CALL app_enable_tenancy('notice_reads');
--> statement-breakpoint
ALTER TABLE "appeals" ADD COLUMN "meter_id" bigint;
--> statement-breakpoint
ALTER TABLE "appeals" ADD COLUMN "collector_id" bigint;
--> statement-breakpoint
ALTER TABLE "appeals" ADD COLUMN "exception_kind" varchar(24);
--> statement-breakpoint
ALTER TABLE appeals DROP CONSTRAINT appeals_kind_valid;
--> statement-breakpoint
ALTER TABLE appeals ADD CONSTRAINT appeals_kind_valid CHECK (kind IN (1, 2, 3));
--> statement-breakpoint
ALTER TABLE appeals ADD CONSTRAINT appeals_device_order CHECK (kind <> 3 OR exception_kind IS NOT NULL);
--> statement-breakpoint
CREATE UNIQUE INDEX "appeals_one_open_device_order" ON "appeals" USING btree (coalesce("meter_id", 0), coalesce("collector_id", 0), "exception_kind") WHERE kind = 3 AND status IN (0, 1);
--> statement-breakpoint
-- the built-in company administrator roles hold every operation key, the new notice one too
UPDATE roles SET operations = ARRAY(SELECT DISTINCT unnest(operations || ARRAY['notice.publish']))
  WHERE builtin;
--> statement-breakpoint
INSERT INTO "sms_templates" ("name", "event", "content") VALUES
  ('物业公告通知', 5, '【{company}】尊敬的{owner}，物业发布了公告「{title}」，请在业主端查看详情。')
ON CONFLICT ("name") DO NOTHING;
