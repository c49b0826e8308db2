-- The 扣费报表 per company and China day (issue 16 item 9). usage_daily has a row a meter a day, so a
-- month of a 100,000-meter company is millions of rows to add up on every report. The settlements'
-- statement trigger now also appends what each statement adds per company, day and meter kind to
-- usage_company_delta (append only: concurrent settlement batches never wait on each other's rows), and
-- the billing.rollups job moves the deltas into usage_company_daily (one DELETE … RETURNING feeding one
-- upsert, as 0058 does for the journal). The report reads both, which is exact at every moment.
-- "Meters read that day" cannot be summed from settlements: it is the number of usage_daily rows holding
-- settlements, and the trigger counts a row's change across zero. The upsert into usage_daily returns the
-- row after the statement's change (its lock held until commit, so concurrent statements change a row
-- one after the other), and its count before is that minus the statement's own settlements: +1 when a
-- row goes from none to some (a meter's first settlement of that day and kind), −1 back to none.
CREATE TABLE "usage_company_delta" (
	"company_id" bigint NOT NULL,
	"day" date NOT NULL,
	"meter_kind" integer NOT NULL,
	"settlements" integer NOT NULL,
	"meters" integer NOT NULL,
	"quantity" numeric(24, 4) NOT NULL,
	"amount_fen" bigint NOT NULL,
	"charged_fen" bigint NOT NULL,
	"vacant_fen" bigint NOT NULL
);
--> statement-breakpoint
CREATE INDEX "usage_company_delta_company_day" ON "usage_company_delta" ("company_id", "day");
--> statement-breakpoint
CREATE TABLE "usage_company_daily" (
	"company_id" bigint NOT NULL,
	"day" date NOT NULL,
	"meter_kind" integer NOT NULL,
	"settlements" bigint DEFAULT 0 NOT NULL,
	"meters" bigint DEFAULT 0 NOT NULL,
	"quantity" numeric(24, 4) DEFAULT '0' NOT NULL,
	"amount_fen" bigint DEFAULT 0 NOT NULL,
	"charged_fen" bigint DEFAULT 0 NOT NULL,
	"vacant_fen" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "usage_company_daily_pk" PRIMARY KEY ("company_id", "day", "meter_kind")
);
--> statement-breakpoint
CALL app_enable_tenancy('usage_company_delta');
--> statement-breakpoint
CALL app_enable_tenancy('usage_company_daily');
--> statement-breakpoint
REVOKE DELETE, TRUNCATE ON usage_company_daily FROM meter_app;
--> statement-breakpoint
REVOKE UPDATE, TRUNCATE ON usage_company_delta FROM meter_app;
--> statement-breakpoint
-- no settlement is written while the function is replaced and the daily rows are built from usage_daily
LOCK TABLE settlements IN SHARE MODE;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION usage_rollup() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format($q$
    WITH g AS (
      SELECT s.meter_id, (s.read_at AT TIME ZONE 'Asia/Shanghai')::date AS day, s.meter_kind, min(s.company_id) AS company_id,
        sum(s.sign)::int AS settlements, sum(s.sign * s.quantity) AS quantity, sum(s.sign * s.amount_fen)::bigint AS amount_fen,
        coalesce(sum(s.sign * s.amount_fen) FILTER (WHERE s.journal_id IS NOT NULL OR s.note = 'shared'), 0)::bigint AS charged_fen,
        coalesce(sum(s.sign * s.amount_fen) FILTER (WHERE s.note = 'vacant'), 0)::bigint AS vacant_fen
      FROM (%s) s GROUP BY 1, 2, 3),
    up AS (
      INSERT INTO usage_daily AS u (meter_id, day, meter_kind, company_id, settlements, quantity, amount_fen, charged_fen, vacant_fen)
        SELECT meter_id, day, meter_kind, company_id, settlements, quantity, amount_fen, charged_fen, vacant_fen FROM g ORDER BY 1, 2, 3
      ON CONFLICT (meter_id, day, meter_kind) DO UPDATE
        SET settlements = u.settlements + excluded.settlements, quantity = u.quantity + excluded.quantity,
          amount_fen = u.amount_fen + excluded.amount_fen, charged_fen = u.charged_fen + excluded.charged_fen, vacant_fen = u.vacant_fen + excluded.vacant_fen
      RETURNING u.meter_id, u.day, u.meter_kind, u.company_id, u.settlements)
    INSERT INTO usage_company_delta (company_id, day, meter_kind, settlements, meters, quantity, amount_fen, charged_fen, vacant_fen)
      SELECT up.company_id, up.day, up.meter_kind, sum(g.settlements), sum((up.settlements > 0)::int - (up.settlements - g.settlements > 0)::int),
        sum(g.quantity), sum(g.amount_fen), sum(g.charged_fen), sum(g.vacant_fen)
      FROM up JOIN g USING (meter_id, day, meter_kind) GROUP BY 1, 2, 3$q$,
    rollup_source(TG_OP));
  EXECUTE format($q$
    INSERT INTO usage_hourly AS u (meter_id, hour, company_id, settlements, quantity, amount_fen)
      SELECT s.meter_id, date_trunc('hour', s.read_at, 'Asia/Shanghai'), min(s.company_id), sum(s.sign), sum(s.sign * s.quantity), sum(s.sign * s.amount_fen)
      FROM (%s) s GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT (meter_id, hour) DO UPDATE
      SET settlements = u.settlements + excluded.settlements, quantity = u.quantity + excluded.quantity, amount_fen = u.amount_fen + excluded.amount_fen$q$,
    rollup_source(TG_OP));
  RETURN NULL;
END $$;
--> statement-breakpoint
SELECT set_config('app.all_companies', 'on', true);
--> statement-breakpoint
INSERT INTO usage_company_daily (company_id, day, meter_kind, settlements, meters, quantity, amount_fen, charged_fen, vacant_fen)
  SELECT company_id, day, meter_kind, sum(settlements), count(*) FILTER (WHERE settlements > 0), sum(quantity), sum(amount_fen), sum(charged_fen), sum(vacant_fen)
  FROM usage_daily GROUP BY 1, 2, 3;
