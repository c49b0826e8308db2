-- Excel imports (issue 15 item 9, issue 14 item 12): one row per committed file. The same file
-- (sha-256) of the same kind is imported once per company; the log is append-only for the app.
CREATE TABLE "import_batches" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"company_id" bigint NOT NULL,
	"kind" varchar(16) NOT NULL,
	"file_hash" varchar(64) NOT NULL,
	"file_name" varchar(200) DEFAULT '' NOT NULL,
	"rows" integer NOT NULL,
	"operator_id" bigint,
	"operator_name" varchar(64) DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "import_batches_kind_valid" CHECK (kind IN ('area', 'room', 'owner', 'collector', 'meter', 'opening'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX "import_batches_file" ON "import_batches" USING btree ("company_id","kind","file_hash");
--> statement-breakpoint
CREATE INDEX "import_batches_company_time" ON "import_batches" USING btree ("company_id","created_at");
--> statement-breakpoint
CALL app_enable_tenancy('import_batches');
--> statement-breakpoint
REVOKE UPDATE, DELETE, TRUNCATE ON import_batches FROM meter_app;
