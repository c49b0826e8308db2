CREATE TABLE "reconcile_rows" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"company_id" bigint,
	"channel" varchar(16) NOT NULL,
	"day" date NOT NULL,
	"out_trade_no" varchar(64) NOT NULL,
	"trade_no" varchar(64) DEFAULT '' NOT NULL,
	"trade_time" varchar(19) DEFAULT '' NOT NULL,
	"provider_fen" bigint,
	"payment_id" bigint,
	"our_fen" bigint,
	"our_status" varchar(16) DEFAULT '' NOT NULL,
	"outcome" varchar(16) NOT NULL,
	"recovered_at" timestamp with time zone,
	"recovered_by" varchar(64) DEFAULT '' NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "reconcile_runs" (
	"channel" varchar(16) NOT NULL,
	"day" date NOT NULL,
	"statement_rows" integer NOT NULL,
	"ran_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ran_by" varchar(64) DEFAULT '' NOT NULL,
	CONSTRAINT "reconcile_runs_channel_day_pk" PRIMARY KEY("channel","day")
);
--> statement-breakpoint
CREATE UNIQUE INDEX "reconcile_rows_trade" ON "reconcile_rows" USING btree ("channel","day","out_trade_no");--> statement-breakpoint
CREATE INDEX "reconcile_rows_company_day" ON "reconcile_rows" USING btree ("company_id","day","channel");--> statement-breakpoint
-- Reconciliation with the payment providers (issue 14 item 5; modules/reconcile). A row is its order's
-- company's; a trade whose order this platform never had (company_id NULL) is seen by the platform only.
CALL app_enable_tenancy('reconcile_rows');
--> statement-breakpoint
-- Built-in company administrator roles get the new operation key (a new company's built-in role is
-- given every key when it is made); roles a company made itself are left as they are.
UPDATE roles SET
  operations = ARRAY(SELECT DISTINCT unnest(operations || ARRAY['finance.reconcile']))
  WHERE builtin AND company_id IS NOT NULL;
