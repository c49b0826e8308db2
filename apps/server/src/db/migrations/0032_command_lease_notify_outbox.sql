ALTER TABLE "commands" ADD COLUMN "claimed_by" integer;--> statement-breakpoint
ALTER TABLE "commands" ADD COLUMN "orphan_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "lease_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "send_attempts" integer DEFAULT 0 NOT NULL;