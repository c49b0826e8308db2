CREATE TABLE "companies" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"name" varchar(128) NOT NULL,
	"classify_id" bigint,
	"contact" varchar(64) DEFAULT '' NOT NULL,
	"phone" varchar(32) DEFAULT '' NOT NULL,
	"address" text DEFAULT '' NOT NULL,
	"bank_type" integer DEFAULT 0 NOT NULL,
	"edition" integer DEFAULT 0 NOT NULL,
	"sms_price_fen" integer DEFAULT 10 NOT NULL,
	"phone_price_fen" integer DEFAULT 20 NOT NULL,
	"device_check" boolean DEFAULT false NOT NULL,
	"valve_control_pwd" varchar(64) DEFAULT '' NOT NULL,
	"status" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "companies_name_unique" UNIQUE("name")
);
--> statement-breakpoint
CREATE TABLE "company_classifies" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"name" varchar(64) NOT NULL,
	"memo" text DEFAULT '' NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "company_classifies_name_unique" UNIQUE("name")
);
--> statement-breakpoint
CREATE TABLE "admin_users" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"company_id" bigint,
	"username" varchar(64) NOT NULL,
	"real_name" varchar(64) DEFAULT '' NOT NULL,
	"phone" varchar(20) DEFAULT '' NOT NULL,
	"password_hash" text NOT NULL,
	"role_id" bigint,
	"access" integer DEFAULT 1 NOT NULL,
	"user_type" integer DEFAULT 1 NOT NULL,
	"status" integer DEFAULT 1 NOT NULL,
	"failed_count" integer DEFAULT 0 NOT NULL,
	"locked_until" timestamp with time zone,
	"last_login_at" timestamp with time zone,
	"password_changed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "admin_users_username_unique" UNIQUE("username")
);
--> statement-breakpoint
CREATE TABLE "audit_log" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"company_id" bigint,
	"user_id" bigint,
	"username" varchar(64) DEFAULT '' NOT NULL,
	"method" varchar(8) NOT NULL,
	"path" text NOT NULL,
	"action" text DEFAULT '' NOT NULL,
	"target" text DEFAULT '' NOT NULL,
	"ip" varchar(64) DEFAULT '' NOT NULL,
	"status" integer DEFAULT 0 NOT NULL,
	"code" varchar(48) DEFAULT '' NOT NULL,
	"detail" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "login_attempts" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"username" varchar(64) NOT NULL,
	"user_id" bigint,
	"success" boolean NOT NULL,
	"reason" varchar(32) DEFAULT '' NOT NULL,
	"ip" varchar(64) DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "roles" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"company_id" bigint,
	"name" varchar(64) NOT NULL,
	"memo" text DEFAULT '' NOT NULL,
	"access" integer DEFAULT 1 NOT NULL,
	"routes" text[] DEFAULT '{}' NOT NULL,
	"operations" text[] DEFAULT '{}' NOT NULL,
	"builtin" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"token_hash" varchar(64) NOT NULL,
	"user_id" bigint NOT NULL,
	"company_id" bigint,
	"ip" varchar(64) DEFAULT '' NOT NULL,
	"user_agent" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone,
	"revoked_reason" varchar(32),
	CONSTRAINT "sessions_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "user_areas" (
	"user_id" bigint NOT NULL,
	"area_id" bigint NOT NULL,
	"company_id" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "areas" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"company_id" bigint NOT NULL,
	"parent_id" bigint,
	"name" varchar(64) NOT NULL,
	"area_type" integer DEFAULT 0 NOT NULL,
	"deep" integer DEFAULT 0 NOT NULL,
	"classify_id" bigint,
	"province" varchar(32) DEFAULT '' NOT NULL,
	"city" varchar(32) DEFAULT '' NOT NULL,
	"district" varchar(32) DEFAULT '' NOT NULL,
	"town" varchar(32) DEFAULT '' NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "owners" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"company_id" bigint NOT NULL,
	"room_id" bigint,
	"name" varchar(64) NOT NULL,
	"phone" varchar(20) DEFAULT '' NOT NULL,
	"id_number" varchar(18) DEFAULT '' NOT NULL,
	"status" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rooms" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"company_id" bigint NOT NULL,
	"area_id" bigint NOT NULL,
	"name" varchar(64) NOT NULL,
	"decoration" integer DEFAULT 0 NOT NULL,
	"orientation" integer DEFAULT 0 NOT NULL,
	"charging_type_id" bigint,
	"size_m2" varchar(16) DEFAULT '' NOT NULL,
	"memo" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "companies" ADD CONSTRAINT "companies_classify_id_company_classifies_id_fk" FOREIGN KEY ("classify_id") REFERENCES "public"."company_classifies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "admin_users" ADD CONSTRAINT "admin_users_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "admin_users" ADD CONSTRAINT "admin_users_role_id_roles_id_fk" FOREIGN KEY ("role_id") REFERENCES "public"."roles"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "roles" ADD CONSTRAINT "roles_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_id_admin_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."admin_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_areas" ADD CONSTRAINT "user_areas_user_id_admin_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."admin_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "owners" ADD CONSTRAINT "owners_room_id_rooms_id_fk" FOREIGN KEY ("room_id") REFERENCES "public"."rooms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rooms" ADD CONSTRAINT "rooms_area_id_areas_id_fk" FOREIGN KEY ("area_id") REFERENCES "public"."areas"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "admin_users_company" ON "admin_users" USING btree ("company_id");--> statement-breakpoint
CREATE INDEX "audit_log_company_time" ON "audit_log" USING btree ("company_id","created_at");--> statement-breakpoint
CREATE INDEX "login_attempts_user_time" ON "login_attempts" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "roles_company_name" ON "roles" USING btree ("company_id","name");--> statement-breakpoint
CREATE INDEX "sessions_user" ON "sessions" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "user_areas_pk" ON "user_areas" USING btree ("user_id","area_id");--> statement-breakpoint
CREATE INDEX "areas_company_parent" ON "areas" USING btree ("company_id","parent_id");--> statement-breakpoint
CREATE INDEX "owners_company_room" ON "owners" USING btree ("company_id","room_id");--> statement-breakpoint
CREATE INDEX "rooms_company_area" ON "rooms" USING btree ("company_id","area_id");