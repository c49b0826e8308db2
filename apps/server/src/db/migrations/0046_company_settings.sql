CREATE TABLE "company_configs" (
	"company_id" bigint NOT NULL,
	"key" varchar(64) NOT NULL,
	"value" text NOT NULL,
	"updated_by" bigint,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "company_configs_company_id_key_pk" PRIMARY KEY("company_id","key")
);
--> statement-breakpoint
CREATE TABLE "export_configs" (
	"company_id" bigint NOT NULL,
	"export_key" varchar(32) NOT NULL,
	"hidden" text[] DEFAULT '{}' NOT NULL,
	"updated_by" bigint,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "export_configs_company_id_export_key_pk" PRIMARY KEY("company_id","export_key")
);
--> statement-breakpoint
-- 系统配置 and 导出配置 per company: row-level security like every tenant table
CALL app_enable_tenancy('company_configs');
--> statement-breakpoint
CALL app_enable_tenancy('export_configs');
