CREATE TABLE "room_area_counts" (
	"area_id" bigint PRIMARY KEY NOT NULL,
	"company_id" bigint NOT NULL,
	"n" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "owner_room_history" DROP CONSTRAINT "owner_room_history_owner_id_owners_id_fk";
--> statement-breakpoint
ALTER TABLE "owner_room_history" DROP CONSTRAINT "owner_room_history_room_id_rooms_id_fk";
--> statement-breakpoint
ALTER TABLE "owner_room_history" ALTER COLUMN "owner_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "owner_room_history" ALTER COLUMN "room_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "owner_room_history" ADD COLUMN "area_id" bigint;--> statement-breakpoint
ALTER TABLE "owner_room_history" ADD COLUMN "owner_name" varchar(64) DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "owner_room_history" ADD COLUMN "owner_phone" varchar(20) DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "owner_room_history" ADD COLUMN "room_name" varchar(400) DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "room_area_counts" ADD CONSTRAINT "room_area_counts_area_id_areas_id_fk" FOREIGN KEY ("area_id") REFERENCES "public"."areas"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "owner_room_history" ADD CONSTRAINT "owner_room_history_owner_id_owners_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."owners"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "owner_room_history" ADD CONSTRAINT "owner_room_history_room_id_rooms_id_fk" FOREIGN KEY ("room_id") REFERENCES "public"."rooms"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "owner_room_history_company_at" ON "owner_room_history" USING btree ("company_id","at");--> statement-breakpoint
CREATE INDEX "owner_room_history_owner" ON "owner_room_history" USING btree ("owner_id");