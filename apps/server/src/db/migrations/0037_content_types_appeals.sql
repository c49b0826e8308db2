CREATE TABLE "appeal_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"company_id" bigint NOT NULL,
	"appeal_id" bigint NOT NULL,
	"action" varchar(16) NOT NULL,
	"from_status" smallint,
	"to_status" smallint,
	"content" text DEFAULT '' NOT NULL,
	"by_id" bigint,
	"by_name" varchar(64) DEFAULT '' NOT NULL,
	"by_access" smallint DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "appeal_types" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"company_id" bigint NOT NULL,
	"name" varchar(64) NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"status" integer DEFAULT 1 NOT NULL,
	"memo" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"limit_hours" integer DEFAULT 24 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "appeals" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"company_id" bigint NOT NULL,
	"kind" smallint NOT NULL,
	"type_id" bigint,
	"type_name" varchar(64) DEFAULT '' NOT NULL,
	"title" varchar(100) NOT NULL,
	"content" text DEFAULT '' NOT NULL,
	"status" smallint DEFAULT 0 NOT NULL,
	"area_id" bigint,
	"room_id" bigint,
	"owner_id" bigint,
	"contact_name" varchar(64) DEFAULT '' NOT NULL,
	"contact_phone" varchar(20) DEFAULT '' NOT NULL,
	"assignee_id" bigint,
	"assignee_name" varchar(64) DEFAULT '' NOT NULL,
	"deadline_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone,
	"created_by_id" bigint,
	"created_by_name" varchar(64) DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "notice_types" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"company_id" bigint NOT NULL,
	"name" varchar(64) NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"status" integer DEFAULT 1 NOT NULL,
	"memo" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "work_order_types" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"company_id" bigint NOT NULL,
	"name" varchar(64) NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"status" integer DEFAULT 1 NOT NULL,
	"memo" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"limit_hours" integer DEFAULT 24 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "appeal_events" ADD CONSTRAINT "appeal_events_appeal_id_appeals_id_fk" FOREIGN KEY ("appeal_id") REFERENCES "public"."appeals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "appeal_events_appeal" ON "appeal_events" USING btree ("appeal_id");--> statement-breakpoint
CREATE INDEX "appeal_types_company" ON "appeal_types" USING btree ("company_id");--> statement-breakpoint
CREATE INDEX "appeals_company_kind_status" ON "appeals" USING btree ("company_id","kind","status");--> statement-breakpoint
CREATE INDEX "appeals_area" ON "appeals" USING btree ("area_id");--> statement-breakpoint
CREATE INDEX "notice_types_company" ON "notice_types" USING btree ("company_id");--> statement-breakpoint
CREATE INDEX "work_order_types_company" ON "work_order_types" USING btree ("company_id");