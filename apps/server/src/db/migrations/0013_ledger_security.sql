-- Tenancy for the money tables, and the journal append-only for the app role (DESIGN §5).
CALL app_enable_tenancy('accounts');
--> statement-breakpoint
CALL app_enable_tenancy('journal');
--> statement-breakpoint
CALL app_enable_tenancy('journal_audits');
--> statement-breakpoint
CALL app_enable_tenancy('settlements');
--> statement-breakpoint
CALL app_enable_tenancy('meter_periods');
--> statement-breakpoint
CALL app_enable_tenancy('settle_cursors');
--> statement-breakpoint
CALL app_enable_tenancy('payments');
--> statement-breakpoint
CALL app_enable_tenancy('receipts');
--> statement-breakpoint
CALL app_enable_tenancy('subsidy_plans');
--> statement-breakpoint
CALL app_enable_tenancy('notifications');
--> statement-breakpoint
REVOKE UPDATE, DELETE, TRUNCATE ON journal FROM meter_app;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION journal_immutable() RETURNS trigger LANGUAGE plpgsql AS
$$ BEGIN RAISE EXCEPTION '账务流水不可修改或删除，请使用冲正'; END $$;
--> statement-breakpoint
CREATE TRIGGER journal_no_change BEFORE UPDATE OR DELETE ON journal
  FOR EACH ROW EXECUTE FUNCTION journal_immutable();
--> statement-breakpoint
-- balance == Σ journal is kept by posting both in one transaction; this check makes a drift loud.
ALTER TABLE accounts ADD CONSTRAINT accounts_wallet_valid CHECK (wallet IN ('electric', 'water', 'subsidy'));
--> statement-breakpoint
ALTER TABLE journal ADD CONSTRAINT journal_kind_valid
  CHECK (kind IN ('prepay', 'refund', 'subsidy', 'deduction', 'fee', 'reversal', 'withdrawal'));
