CREATE TABLE "finance_closings" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"company_id" bigint NOT NULL,
	"day" date NOT NULL,
	"operator_id" bigint,
	"operator_name" varchar(64) DEFAULT '' NOT NULL,
	"totals" jsonb NOT NULL,
	"net_fen" bigint NOT NULL,
	"entries" integer DEFAULT 0 NOT NULL,
	"closed_by" bigint NOT NULL,
	"closed_by_name" varchar(64) DEFAULT '' NOT NULL,
	"memo" text DEFAULT '' NOT NULL,
	"closed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "receipt_voids" (
	"receipt_id" bigint PRIMARY KEY NOT NULL,
	"company_id" bigint NOT NULL,
	"journal_id" bigint NOT NULL,
	"reversal_journal_id" bigint NOT NULL,
	"reason" text NOT NULL,
	"voided_by" bigint NOT NULL,
	"voided_by_name" varchar(64) DEFAULT '' NOT NULL,
	"voided_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "journal" ADD COLUMN "business_day" date;--> statement-breakpoint
CREATE UNIQUE INDEX "finance_closings_day" ON "finance_closings" USING btree ("company_id","day") WHERE operator_id IS NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "finance_closings_shift" ON "finance_closings" USING btree ("company_id","day","operator_id") WHERE operator_id IS NOT NULL;--> statement-breakpoint
CREATE INDEX "finance_closings_company_day" ON "finance_closings" USING btree ("company_id","day");--> statement-breakpoint
CREATE UNIQUE INDEX "receipt_voids_journal" ON "receipt_voids" USING btree ("journal_id");--> statement-breakpoint
CREATE INDEX "journal_company_day" ON "journal" USING btree ("company_id","business_day");