-- Uploads (issue 15 item 6): one row per stored file. Tenancy: a company sees its own files; a
-- platform upload (company_id NULL) only the platform. Public files are served in the system scope;
-- private ones through modules/files/access.ts. Rows are never changed by the app.
CREATE TABLE "files" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"key" varchar(40) NOT NULL,
	"kind" varchar(8) NOT NULL,
	"company_id" bigint,
	"room_id" bigint,
	"category" varchar(16) NOT NULL,
	"name" varchar(200) DEFAULT '' NOT NULL,
	"mime" varchar(100) NOT NULL,
	"size" bigint NOT NULL,
	"store" varchar(8) NOT NULL,
	"uploaded_by" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "files_kind_valid" CHECK (kind IN ('Public', 'Private')),
	CONSTRAINT "files_category_valid" CHECK (category IN ('image', 'video', 'document')),
	CONSTRAINT "files_store_valid" CHECK (store IN ('local', 's3')),
	CONSTRAINT "files_size_valid" CHECK (size >= 0)
);
--> statement-breakpoint
CREATE UNIQUE INDEX "files_key" ON "files" USING btree ("key");
--> statement-breakpoint
CREATE INDEX "files_company_time" ON "files" USING btree ("company_id","created_at");
--> statement-breakpoint
CALL app_enable_tenancy('files');
--> statement-breakpoint
REVOKE UPDATE, TRUNCATE ON files FROM meter_app;
--> statement-breakpoint
-- 教学视频 (Sys_TeachingVideo): platform-wide, written by the platform administrator only.
CREATE TABLE "teaching_videos" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"title" varchar(100) NOT NULL,
	"mode" integer DEFAULT 1 NOT NULL,
	"video" text[] DEFAULT '{}' NOT NULL,
	"images" text[] DEFAULT '{}' NOT NULL,
	"content" text DEFAULT '' NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"status" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "teaching_videos_mode_valid" CHECK (mode IN (1, 2))
);
