-- Growth (issue 16 item 9, docs/ARCHITECTURE.md «Growth»): the money journal and the settlements
-- partitioned by China month, like readings. The existing table of each becomes the partition of
-- everything before a cut-over (the China month after the newest row and after now): no row is copied,
-- the rows stay where they are; new months get their own partitions from ensure_month_partitions.
--
-- Keys. A unique key of a partitioned table must hold the partition key:
--  - settlements: (meter_id, read_at) already does — each reading is settled once, as before;
--    the primary key becomes (id, read_at).
--  - journal: (company_id, idempotency_key) — a posting happens once — holds no time. It moves to
--    journal_keys (company_id, idempotency_key) PRIMARY KEY, unpartitioned, written by the journal's
--    own statement trigger in the same statement as the rows (a second posting under a key fails with
--    23505, as the unique index did); the primary key becomes (id, created_at).
--  - journal_audits' foreign key into journal goes (audits are inserted only for rows visibleJournal
--    found in the same transaction, and the journal never loses a row to the app).
CREATE OR REPLACE FUNCTION ensure_month_partitions(tbl text, from_month date, months int) RETURNS int
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $$
DECLARE
  m date := date_trunc('month', from_month)::date;
  made int := 0;
  name text;
BEGIN
  IF tbl NOT IN ('journal', 'settlements') THEN
    RAISE EXCEPTION 'ensure_month_partitions: % is not partitioned by China month', tbl;
  END IF;
  FOR i IN 0 .. months - 1 LOOP
    name := format('%s_%s', tbl, to_char(m, 'YYYYMM'));
    IF to_regclass(name) IS NULL THEN
      BEGIN
        -- a China month: [1st 00:00 +08, next 1st 00:00 +08)
        EXECUTE format('CREATE TABLE %I PARTITION OF %I FOR VALUES FROM (%L) TO (%L)', name, tbl,
                       m::timestamp AT TIME ZONE 'Asia/Shanghai', (m + interval '1 month')::timestamp AT TIME ZONE 'Asia/Shanghai');
        -- partitions are reached only through the parent, whose row-level security applies
        EXECUTE format('REVOKE ALL ON %I FROM meter_app', name);
        made := made + 1;
      EXCEPTION
        -- the month lies inside the partition of the rows before the cut-over (42P17 overlap), or the
        -- default partition already holds rows of it (23514): nothing to make, the rows are kept
        WHEN invalid_object_definition OR check_violation THEN
          RAISE NOTICE 'ensure_month_partitions: % not made (%)', name, SQLERRM;
      END;
    END IF;
    m := (m + interval '1 month')::date;
  END LOOP;
  RETURN made;
END $$;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION ensure_month_partitions(text, date, int) TO meter_app;
--> statement-breakpoint
-- <tbl>_legacy (the table as it was) becomes the partition of <tbl> for everything before the cut-over:
-- the China month after both now and its newest row. With the validated check, ATTACH does not scan the
-- rows again.
CREATE OR REPLACE PROCEDURE app_attach_before_cutover(tbl text, col text) LANGUAGE plpgsql AS $$
DECLARE cut timestamptz;
BEGIN
  EXECUTE format($q$SELECT (date_trunc('month', greatest(now(), coalesce(max(%I), now())) AT TIME ZONE 'Asia/Shanghai') + interval '1 month')
    AT TIME ZONE 'Asia/Shanghai' FROM %I$q$, col, tbl || '_legacy') INTO cut;
  EXECUTE format('ALTER TABLE %I ADD CONSTRAINT %I CHECK (%I < %L)', tbl || '_legacy', tbl || '_legacy_range', col, cut);
  EXECUTE format('ALTER TABLE %I ATTACH PARTITION %I FOR VALUES FROM (MINVALUE) TO (%L)', tbl, tbl || '_legacy', cut);
END $$;
--> statement-breakpoint
-- the migration reads and moves every company's rows
SELECT set_config('app.all_companies', 'on', true);
--> statement-breakpoint
ALTER TABLE journal_audits DROP CONSTRAINT IF EXISTS journal_audits_journal_id_journal_id_fk;
--> statement-breakpoint
-- ---- journal ------------------------------------------------------------------------------------
ALTER TABLE journal RENAME TO journal_legacy;
--> statement-breakpoint
-- the partition takes the parent's primary key (id, created_at), which serves lookups by id as well
ALTER TABLE journal_legacy DROP CONSTRAINT journal_pkey;
--> statement-breakpoint
ALTER INDEX journal_account RENAME TO journal_legacy_account;
--> statement-breakpoint
ALTER INDEX journal_company_time RENAME TO journal_legacy_company_time;
--> statement-breakpoint
ALTER INDEX journal_company_day RENAME TO journal_legacy_company_day;
--> statement-breakpoint
ALTER TABLE journal_legacy RENAME CONSTRAINT journal_account_id_accounts_id_fk TO journal_legacy_account_id_fk;
--> statement-breakpoint
-- the parent's triggers are cloned onto every partition, this one included
DROP TRIGGER journal_no_change ON journal_legacy;
--> statement-breakpoint
DROP TRIGGER journal_business_day ON journal_legacy;
--> statement-breakpoint
CREATE TABLE journal_keys (
	"company_id" bigint NOT NULL,
	"idempotency_key" varchar(128) NOT NULL,
	"journal_id" bigint NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "journal_keys_pk" PRIMARY KEY ("company_id", "idempotency_key")
);
--> statement-breakpoint
INSERT INTO journal_keys (company_id, idempotency_key, journal_id, created_at)
  SELECT company_id, idempotency_key, id, created_at FROM journal_legacy;
--> statement-breakpoint
DROP INDEX journal_idempotency;
--> statement-breakpoint
CREATE TABLE journal (LIKE journal_legacy INCLUDING DEFAULTS INCLUDING CONSTRAINTS) PARTITION BY RANGE (created_at);
--> statement-breakpoint
ALTER TABLE journal ADD CONSTRAINT journal_pk PRIMARY KEY (id, created_at);
--> statement-breakpoint
ALTER TABLE journal ADD CONSTRAINT journal_account_id_accounts_id_fk FOREIGN KEY (account_id) REFERENCES accounts(id);
--> statement-breakpoint
CREATE INDEX journal_account ON journal (account_id, id);
--> statement-breakpoint
CREATE INDEX journal_company_time ON journal (company_id, created_at);
--> statement-breakpoint
CREATE INDEX journal_company_day ON journal (company_id, business_day);
--> statement-breakpoint
ALTER SEQUENCE journal_id_seq OWNED BY journal.id;
--> statement-breakpoint
CALL app_attach_before_cutover('journal', 'created_at');
--> statement-breakpoint
CREATE TABLE journal_default PARTITION OF journal DEFAULT;
--> statement-breakpoint
CREATE TRIGGER journal_no_change BEFORE UPDATE OR DELETE ON journal FOR EACH ROW EXECUTE FUNCTION journal_immutable();
--> statement-breakpoint
CREATE TRIGGER journal_business_day BEFORE INSERT ON journal FOR EACH ROW EXECUTE FUNCTION journal_business_day();
--> statement-breakpoint
-- a posting happens once per (company, key): the keys of a statement's rows, in the same statement
CREATE OR REPLACE FUNCTION journal_keys_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO journal_keys (company_id, idempotency_key, journal_id, created_at)
    SELECT company_id, idempotency_key, id, created_at FROM new_journal;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER journal_keys_inserted AFTER INSERT ON journal REFERENCING NEW TABLE AS new_journal
  FOR EACH STATEMENT EXECUTE FUNCTION journal_keys_insert();
--> statement-breakpoint
CALL app_enable_tenancy('journal');
--> statement-breakpoint
CALL app_enable_tenancy('journal_keys');
--> statement-breakpoint
REVOKE UPDATE, DELETE, TRUNCATE ON journal, journal_keys FROM meter_app;
--> statement-breakpoint
REVOKE ALL ON journal_legacy, journal_default FROM meter_app;
--> statement-breakpoint
-- ---- settlements --------------------------------------------------------------------------------
ALTER TABLE settlements RENAME TO settlements_legacy;
--> statement-breakpoint
ALTER TABLE settlements_legacy DROP CONSTRAINT settlements_pkey;
--> statement-breakpoint
ALTER INDEX settlements_reading RENAME TO settlements_legacy_reading;
--> statement-breakpoint
ALTER INDEX settlements_company_time RENAME TO settlements_legacy_company_time;
--> statement-breakpoint
ALTER INDEX settlements_owner_time RENAME TO settlements_legacy_owner_time;
--> statement-breakpoint
ALTER TABLE settlements_legacy RENAME CONSTRAINT settlements_meter_id_meters_id_fk TO settlements_legacy_meter_id_fk;
--> statement-breakpoint
CREATE TABLE settlements (LIKE settlements_legacy INCLUDING DEFAULTS INCLUDING CONSTRAINTS) PARTITION BY RANGE (read_at);
--> statement-breakpoint
ALTER TABLE settlements ADD CONSTRAINT settlements_pk PRIMARY KEY (id, read_at);
--> statement-breakpoint
ALTER TABLE settlements ADD CONSTRAINT settlements_meter_id_meters_id_fk FOREIGN KEY (meter_id) REFERENCES meters(id);
--> statement-breakpoint
-- each reading is settled once: the partition key is in this key, so it holds across partitions
CREATE UNIQUE INDEX settlements_reading ON settlements (meter_id, read_at);
--> statement-breakpoint
CREATE INDEX settlements_company_time ON settlements (company_id, read_at);
--> statement-breakpoint
CREATE INDEX settlements_owner_time ON settlements (owner_id, read_at);
--> statement-breakpoint
ALTER SEQUENCE settlements_id_seq OWNED BY settlements.id;
--> statement-breakpoint
CALL app_attach_before_cutover('settlements', 'read_at');
--> statement-breakpoint
CREATE TABLE settlements_default PARTITION OF settlements DEFAULT;
--> statement-breakpoint
CALL app_enable_tenancy('settlements');
--> statement-breakpoint
REVOKE UPDATE, DELETE, TRUNCATE ON settlements FROM meter_app;
--> statement-breakpoint
REVOKE ALL ON settlements_legacy, settlements_default FROM meter_app;
--> statement-breakpoint
SELECT ensure_month_partitions('journal', (now() AT TIME ZONE 'Asia/Shanghai')::date, 4);
--> statement-breakpoint
SELECT ensure_month_partitions('settlements', (now() AT TIME ZONE 'Asia/Shanghai')::date, 4);
