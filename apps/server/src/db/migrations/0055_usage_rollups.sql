-- Rollups (issue 16 item 9): what the monthly report (扣费报表) and /home add up, kept per China day
-- (and per hour for usage) by statement triggers in the same statement as the rows they sum: a
-- settlement batch or a posting that rolls back takes its rollup change with it, one that commits
-- cannot be counted twice (the settlement is unique per reading, the posting per key). A rollup row
-- whose rows were all taken away stays with zero counts (readers skip settlements = 0). Set-based: one
-- upsert per table a statement, whatever its row count, taking its rows' locks in key order (two
-- statements never wait on each other's rollup rows in a cycle).
CREATE TABLE "usage_daily" (
	"meter_id" bigint NOT NULL,
	"day" date NOT NULL,
	"meter_kind" integer NOT NULL,
	"company_id" bigint NOT NULL,
	"settlements" integer DEFAULT 0 NOT NULL,
	"quantity" numeric(20, 4) DEFAULT '0' NOT NULL,
	"amount_fen" bigint DEFAULT 0 NOT NULL,
	"charged_fen" bigint DEFAULT 0 NOT NULL,
	"vacant_fen" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "usage_daily_pk" PRIMARY KEY ("meter_id", "day", "meter_kind")
);
--> statement-breakpoint
CREATE INDEX "usage_daily_company_day" ON "usage_daily" ("company_id", "day");
--> statement-breakpoint
CREATE TABLE "usage_hourly" (
	"meter_id" bigint NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"company_id" bigint NOT NULL,
	"settlements" integer DEFAULT 0 NOT NULL,
	"quantity" numeric(20, 4) DEFAULT '0' NOT NULL,
	"amount_fen" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "usage_hourly_pk" PRIMARY KEY ("meter_id", "hour")
);
--> statement-breakpoint
CREATE TABLE "journal_daily" (
	"company_id" bigint NOT NULL,
	"day" date NOT NULL,
	"room_id" bigint NOT NULL,
	"kind" varchar(12) NOT NULL,
	"pay_method" varchar(12) NOT NULL,
	"entries" integer DEFAULT 0 NOT NULL,
	"amount_fen" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "journal_daily_pk" PRIMARY KEY ("company_id", "day", "room_id", "kind", "pay_method")
);
--> statement-breakpoint
CALL app_enable_tenancy('usage_daily');
--> statement-breakpoint
CALL app_enable_tenancy('usage_hourly');
--> statement-breakpoint
CALL app_enable_tenancy('journal_daily');
--> statement-breakpoint
-- the app adds to rollups through the triggers' upserts; it never deletes from them
REVOKE DELETE, TRUNCATE ON usage_daily, usage_hourly, journal_daily FROM meter_app;
--> statement-breakpoint
-- The rows a statement added (+1) or took away (−1): the app only inserts, but the owner may update or
-- delete (a data migration such as 0028 does), and the rollups follow every change. The transition
-- tables are named alike on each event, and the statement is built for the event (EXECUTE sees them).
CREATE OR REPLACE FUNCTION rollup_source(op text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE op
    WHEN 'INSERT' THEN 'SELECT n.*, 1 AS sign FROM new_rows n'
    WHEN 'DELETE' THEN 'SELECT o.*, -1 AS sign FROM old_rows o'
    ELSE 'SELECT n.*, 1 AS sign FROM new_rows n UNION ALL SELECT o.*, -1 FROM old_rows o' END
$$;
--> statement-breakpoint
-- a rollup function on every event of a table (a transition table serves one event a trigger)
CREATE OR REPLACE PROCEDURE app_rollup_triggers(tbl text, fn text) LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format('CREATE TRIGGER %I AFTER INSERT ON %I REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION %I()', fn || '_inserted', tbl, fn);
  EXECUTE format('CREATE TRIGGER %I AFTER UPDATE ON %I REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION %I()', fn || '_updated', tbl, fn);
  EXECUTE format('CREATE TRIGGER %I AFTER DELETE ON %I REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION %I()', fn || '_deleted', tbl, fn);
END $$;
--> statement-breakpoint
-- settlements: per meter and China day (the report's day), and per meter and hour
CREATE OR REPLACE FUNCTION usage_rollup() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format($q$
    INSERT INTO usage_daily AS u (meter_id, day, meter_kind, company_id, settlements, quantity, amount_fen, charged_fen, vacant_fen)
      SELECT s.meter_id, (s.read_at AT TIME ZONE 'Asia/Shanghai')::date, s.meter_kind, min(s.company_id), sum(s.sign), sum(s.sign * s.quantity),
        sum(s.sign * s.amount_fen), coalesce(sum(s.sign * s.amount_fen) FILTER (WHERE s.journal_id IS NOT NULL OR s.note = 'shared'), 0),
        coalesce(sum(s.sign * s.amount_fen) FILTER (WHERE s.note = 'vacant'), 0)
      FROM (%s) s GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT (meter_id, day, meter_kind) DO UPDATE
      SET settlements = u.settlements + excluded.settlements, quantity = u.quantity + excluded.quantity,
        amount_fen = u.amount_fen + excluded.amount_fen, charged_fen = u.charged_fen + excluded.charged_fen, vacant_fen = u.vacant_fen + excluded.vacant_fen$q$,
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
CALL app_rollup_triggers('settlements', 'usage_rollup');
--> statement-breakpoint
-- journal: per company, China day of created_at, room (0: none), kind and pay method
CREATE OR REPLACE FUNCTION journal_rollup() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format($q$
    INSERT INTO journal_daily AS d (company_id, day, room_id, kind, pay_method, entries, amount_fen)
      SELECT j.company_id, (j.created_at AT TIME ZONE 'Asia/Shanghai')::date, coalesce(j.room_id, 0), j.kind, j.pay_method, sum(j.sign), sum(j.sign * j.amount_fen)
      FROM (%s) j GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5
    ON CONFLICT (company_id, day, room_id, kind, pay_method) DO UPDATE
      SET entries = d.entries + excluded.entries, amount_fen = d.amount_fen + excluded.amount_fen$q$,
    rollup_source(TG_OP));
  RETURN NULL;
END $$;
--> statement-breakpoint
CALL app_rollup_triggers('journal', 'journal_rollup');
--> statement-breakpoint
SELECT set_config('app.all_companies', 'on', true);
--> statement-breakpoint
INSERT INTO usage_daily (meter_id, day, meter_kind, company_id, settlements, quantity, amount_fen, charged_fen, vacant_fen)
  SELECT s.meter_id, (s.read_at AT TIME ZONE 'Asia/Shanghai')::date, s.meter_kind, min(s.company_id), count(*), sum(s.quantity), sum(s.amount_fen),
    coalesce(sum(s.amount_fen) FILTER (WHERE s.journal_id IS NOT NULL OR s.note = 'shared'), 0),
    coalesce(sum(s.amount_fen) FILTER (WHERE s.note = 'vacant'), 0)
  FROM settlements s GROUP BY 1, 2, 3;
--> statement-breakpoint
INSERT INTO usage_hourly (meter_id, hour, company_id, settlements, quantity, amount_fen)
  SELECT s.meter_id, date_trunc('hour', s.read_at, 'Asia/Shanghai'), min(s.company_id), count(*), sum(s.quantity), sum(s.amount_fen)
  FROM settlements s GROUP BY 1, 2;
--> statement-breakpoint
INSERT INTO journal_daily (company_id, day, room_id, kind, pay_method, entries, amount_fen)
  SELECT j.company_id, (j.created_at AT TIME ZONE 'Asia/Shanghai')::date, coalesce(j.room_id, 0), j.kind, j.pay_method, count(*), sum(j.amount_fen)
  FROM journal j GROUP BY 1, 2, 3, 4, 5;
