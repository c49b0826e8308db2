CREATE TABLE "pay_app_journal" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"company_id" bigint NOT NULL,
	"app_id" bigint NOT NULL,
	"kind" varchar(12) NOT NULL,
	"amount_fen" bigint NOT NULL,
	"balance_after_fen" bigint NOT NULL,
	"idempotency_key" varchar(128) NOT NULL,
	"ref_type" varchar(16) DEFAULT '' NOT NULL,
	"ref_id" bigint,
	"operator_name" varchar(64) DEFAULT '' NOT NULL,
	"memo" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "pay_app_withdrawals" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"company_id" bigint NOT NULL,
	"app_id" bigint NOT NULL,
	"request_id" varchar(64) NOT NULL,
	"amount_fen" bigint NOT NULL,
	"fee_fen" bigint DEFAULT 0 NOT NULL,
	"status" integer DEFAULT 0 NOT NULL,
	"bank_name" varchar(64) NOT NULL,
	"bank_account_name" varchar(64) NOT NULL,
	"bank_account_no" varchar(32) NOT NULL,
	"provider_no" varchar(64) DEFAULT '' NOT NULL,
	"reason" text DEFAULT '' NOT NULL,
	"memo" text DEFAULT '' NOT NULL,
	"operator_id" bigint,
	"operator_name" varchar(64) DEFAULT '' NOT NULL,
	"finished_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "pay_apps" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"company_id" bigint NOT NULL,
	"name" varchar(64) NOT NULL,
	"kind" integer DEFAULT 1 NOT NULL,
	"legal_person" varchar(32) NOT NULL,
	"contact_name" varchar(32) DEFAULT '' NOT NULL,
	"id_no" varchar(18) NOT NULL,
	"phone" varchar(16) NOT NULL,
	"bank_name" varchar(64) NOT NULL,
	"bank_account_name" varchar(64) NOT NULL,
	"bank_account_no" varchar(32) NOT NULL,
	"status" varchar(10) DEFAULT 'pending' NOT NULL,
	"provider_app_id" varchar(64) DEFAULT '' NOT NULL,
	"reason" text DEFAULT '' NOT NULL,
	"balance_fen" bigint DEFAULT 0 NOT NULL,
	"memo" text DEFAULT '' NOT NULL,
	"created_by" bigint,
	"opened_at" timestamp with time zone,
	"deleted_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "pay_app_journal" ADD CONSTRAINT "pay_app_journal_app_id_pay_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."pay_apps"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pay_app_withdrawals" ADD CONSTRAINT "pay_app_withdrawals_app_id_pay_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."pay_apps"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "pay_app_journal_idempotency" ON "pay_app_journal" USING btree ("company_id","idempotency_key");--> statement-breakpoint
CREATE INDEX "pay_app_journal_app" ON "pay_app_journal" USING btree ("app_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "pay_app_withdrawals_request" ON "pay_app_withdrawals" USING btree ("company_id","request_id");--> statement-breakpoint
CREATE INDEX "pay_app_withdrawals_company_time" ON "pay_app_withdrawals" USING btree ("company_id","created_at");--> statement-breakpoint
CREATE INDEX "pay_app_withdrawals_pending" ON "pay_app_withdrawals" USING btree ("id") WHERE status = 0;--> statement-breakpoint
CREATE UNIQUE INDEX "pay_apps_company_name" ON "pay_apps" USING btree ("company_id","name") WHERE deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX "pay_apps_company" ON "pay_apps" USING btree ("company_id","id");