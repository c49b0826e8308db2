-- The finance day (issue 14 items 13, 14; modules/finance). Tenancy for the new tables; closings and
-- voids are final for the app role (a closed day is never reopened, a void never undone).
CALL app_enable_tenancy('finance_closings');
--> statement-breakpoint
CALL app_enable_tenancy('receipt_voids');
--> statement-breakpoint
REVOKE UPDATE, DELETE, TRUNCATE ON finance_closings, receipt_voids FROM meter_app;
--> statement-breakpoint
-- Every journal row gets its business day when it is written: its China date, or the next day still
-- open when that date is closed for the company (日结) or for the row's operator (交班) — later
-- corrections go to the next day, a closed day never changes. A closing holds advisory lock
-- (724035, company) exclusively while it sums and records the day; every writer of a counted kind
-- holds it shared until it commits, so no row slips into a day while it closes. Deductions and fees
-- (settlement, in bulk; never counted in a closing) take their China date without the lock.
CREATE OR REPLACE FUNCTION journal_business_day() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  d date := (NEW.created_at AT TIME ZONE 'Asia/Shanghai')::date;
BEGIN
  IF NEW.kind IN ('deduction', 'fee') THEN
    NEW.business_day := d;
    RETURN NEW;
  END IF;
  PERFORM pg_advisory_xact_lock_shared(724035, NEW.company_id::int);
  WHILE EXISTS (
    SELECT 1 FROM finance_closings c
    WHERE c.company_id = NEW.company_id AND c.day = d AND (c.operator_id IS NULL OR c.operator_id = NEW.operator_id)
  ) LOOP
    d := d + 1;
  END LOOP;
  NEW.business_day := d;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER journal_business_day BEFORE INSERT ON journal FOR EACH ROW EXECUTE FUNCTION journal_business_day();
--> statement-breakpoint
-- the rows written before: their China date (the journal refuses changes by trigger; the migration,
-- the table's owner, lifts it for this one statement inside the migration's transaction)
SELECT set_config('app.all_companies', 'on', true);
--> statement-breakpoint
ALTER TABLE journal DISABLE TRIGGER journal_no_change;
--> statement-breakpoint
UPDATE journal SET business_day = (created_at AT TIME ZONE 'Asia/Shanghai')::date WHERE business_day IS NULL;
--> statement-breakpoint
ALTER TABLE journal ENABLE TRIGGER journal_no_change;
--> statement-breakpoint
ALTER TABLE journal ALTER COLUMN business_day SET NOT NULL;
