CREATE TABLE "shared_meters" (
	"meter_id" bigint PRIMARY KEY NOT NULL,
	"company_id" bigint NOT NULL,
	"area_id" bigint NOT NULL,
	"method" integer DEFAULT 1 NOT NULL,
	"memo" text DEFAULT '' NOT NULL,
	"created_by" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "settlements" ALTER COLUMN "quantity" SET DATA TYPE numeric(16, 4);--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "room_id" bigint;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "subject" varchar(128) DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "code_url" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "created_by" bigint;--> statement-breakpoint
ALTER TABLE "receipts" ADD COLUMN "kind" varchar(12) DEFAULT 'prepay' NOT NULL;--> statement-breakpoint
ALTER TABLE "receipts" ADD COLUMN "pay_method" varchar(12) DEFAULT 'cash' NOT NULL;--> statement-breakpoint
ALTER TABLE "receipts" ADD COLUMN "operator_name" varchar(64) DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "receipts" ADD COLUMN "memo" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "settle_cursors" ADD COLUMN "registers" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "settlements" ADD COLUMN "meter_kind" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "settlements" ADD COLUMN "note" varchar(16) DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "shared_meters" ADD CONSTRAINT "shared_meters_meter_id_meters_id_fk" FOREIGN KEY ("meter_id") REFERENCES "public"."meters"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payments_company_time" ON "payments" USING btree ("company_id","created_at");--> statement-breakpoint
CREATE INDEX "receipts_company_time" ON "receipts" USING btree ("company_id","created_at");--> statement-breakpoint
CREATE INDEX "settlements_owner_time" ON "settlements" USING btree ("owner_id","read_at");