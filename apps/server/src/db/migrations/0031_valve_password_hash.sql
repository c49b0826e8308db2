ALTER TABLE "companies" ALTER COLUMN "valve_control_pwd" SET DATA TYPE text;--> statement-breakpoint
ALTER TABLE "companies" ALTER COLUMN "valve_control_pwd" SET DEFAULT '';
