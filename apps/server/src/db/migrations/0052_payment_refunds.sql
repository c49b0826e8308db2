-- Online refunds (issue 14): one row per refund request of a paid online order (out_refund_no, the
-- provider's idempotency key), its debit journal row and, when the provider refused it, the reversal.
CREATE TABLE "payment_refunds" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"company_id" bigint NOT NULL,
	"payment_id" bigint NOT NULL REFERENCES "payments"("id"),
	"channel" varchar(12) NOT NULL,
	"out_trade_no" varchar(64) NOT NULL,
	"out_refund_no" varchar(64) NOT NULL,
	"amount_fen" bigint NOT NULL,
	"reason" varchar(80) DEFAULT '' NOT NULL,
	"status" varchar(12) DEFAULT 'processing' NOT NULL,
	"provider_refund_no" varchar(64) DEFAULT '' NOT NULL,
	"provider_message" varchar(255) DEFAULT '' NOT NULL,
	"journal_id" bigint,
	"reversal_journal_id" bigint,
	"created_by" bigint,
	"created_by_name" varchar(64) DEFAULT '' NOT NULL,
	"finished_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "payment_refunds_out_refund_no" ON "payment_refunds" USING btree ("out_refund_no");
--> statement-breakpoint
CREATE INDEX "payment_refunds_payment" ON "payment_refunds" USING btree ("payment_id");
--> statement-breakpoint
CREATE INDEX "payment_refunds_company_time" ON "payment_refunds" USING btree ("company_id","created_at");
--> statement-breakpoint
CALL app_enable_tenancy('payment_refunds');
--> statement-breakpoint
-- 支付平台对账 of refund rows: a statement row is a trade or a refund (out_refund_no), one row per (channel, day, order, refund).
ALTER TABLE "reconcile_rows" ADD COLUMN "kind" varchar(8) DEFAULT 'payment' NOT NULL;
--> statement-breakpoint
ALTER TABLE "reconcile_rows" ADD COLUMN "out_refund_no" varchar(64) DEFAULT '' NOT NULL;
--> statement-breakpoint
DROP INDEX "reconcile_rows_trade";
--> statement-breakpoint
CREATE UNIQUE INDEX "reconcile_rows_trade" ON "reconcile_rows" USING btree ("channel","day","out_trade_no","out_refund_no");
