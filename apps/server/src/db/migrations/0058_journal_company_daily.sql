-- /home's money per company and China day (issue 16 item 9). journal_daily has a row a room a day, so a
-- month of a 100,000-room company is millions of rows to add up on every /home. The journal's statement
-- trigger now also appends what each statement adds per company, day, kind and pay method to
-- journal_company_delta (append only: concurrent postings never wait on each other's rows), and the
-- billing.rollups job moves the deltas into journal_company_daily (one DELETE … RETURNING feeding one
-- upsert, so each delta is counted once: either still in the delta table or already in the daily one).
-- /home reads both, which is exact at every moment.
CREATE TABLE "journal_company_delta" (
	"company_id" bigint NOT NULL,
	"day" date NOT NULL,
	"kind" varchar(12) NOT NULL,
	"pay_method" varchar(12) NOT NULL,
	"entries" integer NOT NULL,
	"amount_fen" bigint NOT NULL
);
--> statement-breakpoint
CREATE INDEX "journal_company_delta_company_day" ON "journal_company_delta" ("company_id", "day");
--> statement-breakpoint
CREATE TABLE "journal_company_daily" (
	"company_id" bigint NOT NULL,
	"day" date NOT NULL,
	"kind" varchar(12) NOT NULL,
	"pay_method" varchar(12) NOT NULL,
	"entries" bigint DEFAULT 0 NOT NULL,
	"amount_fen" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "journal_company_daily_pk" PRIMARY KEY ("company_id", "day", "kind", "pay_method")
);
--> statement-breakpoint
CALL app_enable_tenancy('journal_company_delta');
--> statement-breakpoint
CALL app_enable_tenancy('journal_company_daily');
--> statement-breakpoint
REVOKE DELETE, TRUNCATE ON journal_company_daily FROM meter_app;
--> statement-breakpoint
REVOKE UPDATE, TRUNCATE ON journal_company_delta FROM meter_app;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION journal_rollup() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format($q$
    INSERT INTO journal_daily AS d (company_id, day, room_id, kind, pay_method, entries, amount_fen)
      SELECT j.company_id, (j.created_at AT TIME ZONE 'Asia/Shanghai')::date, coalesce(j.room_id, 0), j.kind, j.pay_method, sum(j.sign), sum(j.sign * j.amount_fen)
      FROM (%s) j GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5
    ON CONFLICT (company_id, day, room_id, kind, pay_method) DO UPDATE
      SET entries = d.entries + excluded.entries, amount_fen = d.amount_fen + excluded.amount_fen$q$,
    rollup_source(TG_OP));
  EXECUTE format($q$
    INSERT INTO journal_company_delta (company_id, day, kind, pay_method, entries, amount_fen)
      SELECT j.company_id, (j.created_at AT TIME ZONE 'Asia/Shanghai')::date, j.kind, j.pay_method, sum(j.sign), sum(j.sign * j.amount_fen)
      FROM (%s) j GROUP BY 1, 2, 3, 4$q$,
    rollup_source(TG_OP));
  RETURN NULL;
END $$;
--> statement-breakpoint
SELECT set_config('app.all_companies', 'on', true);
--> statement-breakpoint
INSERT INTO journal_company_daily (company_id, day, kind, pay_method, entries, amount_fen)
  SELECT company_id, day, kind, pay_method, sum(entries), sum(amount_fen) FROM journal_daily GROUP BY 1, 2, 3, 4;
