CREATE TABLE "sms_rules" (
	"company_id" bigint NOT NULL,
	"meter_kind" integer NOT NULL,
	"event" integer NOT NULL,
	"template_id" bigint,
	"threshold_fen" integer DEFAULT 0 NOT NULL,
	"channel" varchar(8) DEFAULT 'sms' NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sms_rules_company_id_meter_kind_event_pk" PRIMARY KEY("company_id","meter_kind","event")
);
--> statement-breakpoint
CREATE TABLE "sms_templates" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"name" varchar(64) NOT NULL,
	"event" integer NOT NULL,
	"content" text NOT NULL,
	"status" integer DEFAULT 1 NOT NULL,
	"memo" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sms_templates_name_unique" UNIQUE("name")
);
--> statement-breakpoint
ALTER TABLE "sms_rules" ADD CONSTRAINT "sms_rules_template_id_sms_templates_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."sms_templates"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
-- 短信提醒规则 per company: row-level security like every tenant table; templates are platform-wide
CALL app_enable_tenancy('sms_rules');
--> statement-breakpoint
INSERT INTO "sms_templates" ("name", "event", "content") VALUES
  ('余额不足提醒', 1, '【{company}】尊敬的{owner}，您的房间{room}{kind}余额为¥{balance}，已低于报警金额¥{threshold}，请及时充值。'),
  ('欠费停止供应通知', 2, '【{company}】尊敬的{owner}，您的房间{room}{kind}余额为¥{balance}，已欠费，系统将自动停止供应，请尽快充值，充值后自动恢复。'),
  ('恢复供应通知', 3, '【{company}】尊敬的{owner}，您的房间{room}{kind}已充值，余额¥{balance}，已恢复供应。'),
  ('缴费到账通知', 4, '【{company}】尊敬的{owner}，您为房间{room}缴纳的{kind}¥{amount}已到账，当前余额¥{balance}。')
ON CONFLICT ("name") DO NOTHING;
