-- Tenancy for the pay-application tables; the merchant journal append-only for the app role; the
-- balance never below zero (DESIGN §5).
CALL app_enable_tenancy('pay_apps');
--> statement-breakpoint
CALL app_enable_tenancy('pay_app_journal');
--> statement-breakpoint
CALL app_enable_tenancy('pay_app_withdrawals');
--> statement-breakpoint
REVOKE UPDATE, DELETE, TRUNCATE ON pay_app_journal FROM meter_app;
--> statement-breakpoint
REVOKE DELETE, TRUNCATE ON pay_apps, pay_app_withdrawals FROM meter_app;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION pay_app_journal_immutable() RETURNS trigger LANGUAGE plpgsql AS
$$ BEGIN RAISE EXCEPTION '商户账务流水不可修改或删除'; END $$;
--> statement-breakpoint
CREATE TRIGGER pay_app_journal_no_change BEFORE UPDATE OR DELETE ON pay_app_journal
  FOR EACH ROW EXECUTE FUNCTION pay_app_journal_immutable();
--> statement-breakpoint
ALTER TABLE pay_apps ADD CONSTRAINT pay_apps_balance_not_negative CHECK (balance_fen >= 0);
--> statement-breakpoint
ALTER TABLE pay_apps ADD CONSTRAINT pay_apps_status_valid CHECK (status IN ('pending', 'opened', 'disabled', 'rejected'));
--> statement-breakpoint
ALTER TABLE pay_app_journal ADD CONSTRAINT pay_app_journal_kind_valid CHECK (kind IN ('collect', 'withdrawal', 'fee', 'reversal'));
--> statement-breakpoint
ALTER TABLE pay_app_journal ADD CONSTRAINT pay_app_journal_balance_not_negative CHECK (balance_after_fen >= 0);
--> statement-breakpoint
ALTER TABLE pay_app_withdrawals ADD CONSTRAINT pay_app_withdrawals_amount_positive CHECK (amount_fen > 0 AND fee_fen >= 0);
--> statement-breakpoint
ALTER TABLE pay_app_withdrawals ADD CONSTRAINT pay_app_withdrawals_status_valid CHECK (status IN (0, 1, 2));
