ALTER TABLE "settle_cursors" ADD COLUMN "period_key" varchar(7) DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "settle_cursors" ADD COLUMN "period_quantity" numeric(16, 4) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "settle_cursors" ADD COLUMN "period_exact" numeric(24, 10) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "settle_cursors" ADD COLUMN "period_charged_fen" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
-- The state of the accumulation period a meter's cursor is in moves onto the cursor row: settling a
-- reading then updates one row (the cursor) instead of two. meter_periods keeps the periods a meter
-- has moved on from (written when the cursor leaves them); the current period's row moves here.
UPDATE settle_cursors c SET period_key = p.period_key, period_quantity = p.quantity, period_exact = p.exact, period_charged_fen = p.charged_fen
FROM meters m LEFT JOIN charging_schemes s ON s.id = m.charging_scheme_id, meter_periods p
WHERE m.id = c.meter_id AND c.read_at <> '-infinity' AND p.meter_id = c.meter_id
  AND p.period_key = to_char(c.read_at AT TIME ZONE 'Asia/Shanghai', CASE WHEN s.charging_month_type = 2 THEN 'YYYY' ELSE 'YYYY-MM' END);
--> statement-breakpoint
DELETE FROM meter_periods p USING settle_cursors c WHERE p.meter_id = c.meter_id AND p.period_key = c.period_key;
