-- 短信余额 (issue 14 item 10): a company's SMS credit, kept by the platform. NULL = no credit kept
-- (messages are sent and their cost recorded, as before); a number = the balance in 分, topped up by the
-- platform and charged per priced message when it is handed to the provider. A message that finds too
-- little credit is held (status 'held', 余额不足) and queued again by the next top-up.
ALTER TABLE "companies" ADD COLUMN "sms_credit_fen" bigint;--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "credit_fen" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE TABLE "sms_credit_journal" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"company_id" bigint NOT NULL,
	"kind" varchar(8) NOT NULL,
	"amount_fen" bigint NOT NULL,
	"balance_fen" bigint NOT NULL,
	"notification_id" bigint,
	"memo" varchar(200) DEFAULT '' NOT NULL,
	"operator_name" varchar(64) DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "sms_credit_journal_company" ON "sms_credit_journal" USING btree ("company_id","id");--> statement-breakpoint
CREATE INDEX "notifications_held" ON "notifications" USING btree ("company_id") WHERE status = 'held';--> statement-breakpoint
-- 语音通知 (notify type 2) through the company's provider: 阿里云 Dyvmsapi TtsCode + 主叫显号, 腾讯云 VMS TemplateId + VoiceSdkAppid
ALTER TABLE "sms_configs" ADD COLUMN "voice_template_code" varchar(64) DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "sms_configs" ADD COLUMN "voice_show_number" varchar(32) DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "sms_configs" ADD COLUMN "voice_sdk_app_id" varchar(32) DEFAULT '' NOT NULL;--> statement-breakpoint
CALL app_enable_tenancy('sms_credit_journal');
--> statement-breakpoint
-- 支付平台对账 per merchant (issue 14 item 5): each company's own merchant statement is reconciled on its
-- own (merchant_company_id = that company; 0 = the platform's merchant), so one merchant's run never
-- removes another's rows.
ALTER TABLE "reconcile_rows" ADD COLUMN "merchant_company_id" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "reconcile_runs" ADD COLUMN "merchant_company_id" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "reconcile_runs" DROP CONSTRAINT "reconcile_runs_channel_day_pk";--> statement-breakpoint
ALTER TABLE "reconcile_runs" ADD CONSTRAINT "reconcile_runs_channel_day_merchant_company_id_pk" PRIMARY KEY("channel","day","merchant_company_id");
