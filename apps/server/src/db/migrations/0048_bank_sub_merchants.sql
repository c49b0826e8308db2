-- Bank sub-merchants (issue 14 item 7; modules/bank): the bank dictionary, each company's bank
-- information, sub-merchant applications (Property_Info), the log of every exchange with the bank and
-- the sub-account's withdrawals.
CREATE TABLE "banks" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"name" varchar(64) NOT NULL,
	"code" varchar(16) DEFAULT '' NOT NULL,
	"bank_type" integer,
	"sort" integer DEFAULT 0 NOT NULL,
	"status" integer DEFAULT 1 NOT NULL,
	"memo" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "banks_name" ON "banks" USING btree ("name");
--> statement-breakpoint
CREATE TABLE "company_bank_infos" (
	"company_id" bigint PRIMARY KEY NOT NULL REFERENCES "companies"("id"),
	"mer_id" varchar(32) DEFAULT '' NOT NULL,
	"branch_name" varchar(64) DEFAULT '' NOT NULL,
	"account_name" varchar(64) DEFAULT '' NOT NULL,
	"account_no" varchar(32) DEFAULT '' NOT NULL,
	"contact_name" varchar(32) DEFAULT '' NOT NULL,
	"phone" varchar(32) DEFAULT '' NOT NULL,
	"memo" text DEFAULT '' NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "property_infos" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"company_id" bigint NOT NULL,
	"name" varchar(64) NOT NULL,
	"short_name" varchar(20) NOT NULL,
	"license_no" varchar(18) NOT NULL,
	"legal_person" varchar(32) NOT NULL,
	"legal_id_no" varchar(18) NOT NULL,
	"contact_name" varchar(32) NOT NULL,
	"phone" varchar(16) NOT NULL,
	"address" varchar(200) DEFAULT '' NOT NULL,
	"bank_id" bigint REFERENCES "banks"("id"),
	"account_name" varchar(64) NOT NULL,
	"account_no" varchar(40) NOT NULL,
	"status" varchar(12) DEFAULT 'draft' NOT NULL,
	"sub_mer_id" varchar(32) DEFAULT '' NOT NULL,
	"reason" text DEFAULT '' NOT NULL,
	"memo" text DEFAULT '' NOT NULL,
	"activated_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "property_infos_status" CHECK ("status" IN ('draft', 'applied', 'code_sent', 'verified', 'active', 'disabled', 'rejected'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX "property_infos_company_name" ON "property_infos" USING btree ("company_id", "name");
--> statement-breakpoint
CREATE UNIQUE INDEX "property_infos_sub_mer" ON "property_infos" USING btree ("sub_mer_id") WHERE sub_mer_id <> '';
--> statement-breakpoint
CREATE TABLE "bank_logs" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"company_id" bigint NOT NULL,
	"property_id" bigint,
	"sub_mer_id" varchar(32) DEFAULT '' NOT NULL,
	"bank_name" varchar(32) NOT NULL,
	"action" varchar(40) NOT NULL,
	"ok" boolean NOT NULL,
	"err_code" varchar(32) DEFAULT '' NOT NULL,
	"message" text DEFAULT '' NOT NULL,
	"status_from" varchar(12) DEFAULT '' NOT NULL,
	"status_to" varchar(12) DEFAULT '' NOT NULL,
	"request" jsonb,
	"response" jsonb,
	"operator_name" varchar(64) DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "bank_logs_company_time" ON "bank_logs" USING btree ("company_id", "created_at");
--> statement-breakpoint
CREATE TABLE "bank_withdrawals" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"company_id" bigint NOT NULL,
	"property_id" bigint NOT NULL REFERENCES "property_infos"("id"),
	"sub_mer_id" varchar(32) NOT NULL,
	"request_id" varchar(64) NOT NULL,
	"amount_fen" bigint NOT NULL CHECK ("amount_fen" > 0),
	"status" integer DEFAULT 0 NOT NULL,
	"bank_serial" varchar(64) DEFAULT '' NOT NULL,
	"account_name" varchar(64) NOT NULL,
	"account_no" varchar(40) NOT NULL,
	"reason" text DEFAULT '' NOT NULL,
	"memo" text DEFAULT '' NOT NULL,
	"operator_id" bigint,
	"operator_name" varchar(64) DEFAULT '' NOT NULL,
	"finished_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "bank_withdrawals_request" ON "bank_withdrawals" USING btree ("company_id", "request_id");
--> statement-breakpoint
CREATE INDEX "bank_withdrawals_property" ON "bank_withdrawals" USING btree ("property_id", "id");
--> statement-breakpoint
CALL app_enable_tenancy('company_bank_infos');
--> statement-breakpoint
CALL app_enable_tenancy('property_infos');
--> statement-breakpoint
CALL app_enable_tenancy('bank_logs');
--> statement-breakpoint
CALL app_enable_tenancy('bank_withdrawals');
--> statement-breakpoint
-- the log is append-only for the app; withdrawals and applications are never deleted once at the bank
REVOKE UPDATE, DELETE, TRUNCATE ON bank_logs FROM meter_app;
--> statement-breakpoint
REVOKE DELETE, TRUNCATE ON bank_withdrawals FROM meter_app;
--> statement-breakpoint
INSERT INTO banks (name, code, bank_type, sort) VALUES
	('中国农业银行', '103', 0, 1), ('中国银行', '104', 1, 2), ('深圳农村商业银行', '402', 2, 3),
	('中国工商银行', '102', NULL, 4), ('中国建设银行', '105', NULL, 5), ('交通银行', '301', NULL, 6), ('招商银行', '308', NULL, 7)
ON CONFLICT DO NOTHING;
