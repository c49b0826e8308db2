-- 业主端 H5 (issue 15 item 8): owners' own sessions (a token kind apart from the back-office's
-- sessions: neither answers the other's endpoints), the SMS login codes (hashed, expiring, counted),
-- the photos an owner attaches to an appeal, and which owner uploaded a private file.
CREATE TABLE "owner_sessions" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"token_hash" varchar(64) NOT NULL,
	"owner_id" bigint NOT NULL REFERENCES "owners"("id") ON DELETE CASCADE,
	"company_id" bigint NOT NULL,
	"phone" varchar(20) DEFAULT '' NOT NULL,
	"via" varchar(8) NOT NULL,
	"ip" varchar(64) DEFAULT '' NOT NULL,
	"user_agent" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "owner_sessions_via_valid" CHECK (via IN ('sms', 'password'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX "owner_sessions_token" ON "owner_sessions" USING btree ("token_hash");
--> statement-breakpoint
CREATE INDEX "owner_sessions_owner" ON "owner_sessions" USING btree ("owner_id");
--> statement-breakpoint
CALL app_enable_tenancy('owner_sessions');
--> statement-breakpoint
-- a phone is not yet any company's when its code is asked for: no tenant column, read in the system scope
CREATE TABLE "owner_login_codes" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"phone" varchar(20) NOT NULL,
	"code_hash" varchar(64) NOT NULL,
	"ip" varchar(64) DEFAULT '' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "owner_login_codes_phone" ON "owner_login_codes" USING btree ("phone", "created_at");
--> statement-breakpoint
CREATE INDEX "owner_login_codes_ip" ON "owner_login_codes" USING btree ("ip", "created_at");
--> statement-breakpoint
REVOKE DELETE, TRUNCATE ON owner_login_codes FROM meter_app;
--> statement-breakpoint
ALTER TABLE "appeals" ADD COLUMN "photos" text[] DEFAULT '{}' NOT NULL;
--> statement-breakpoint
ALTER TABLE "files" ADD COLUMN "uploaded_by_owner" bigint;
