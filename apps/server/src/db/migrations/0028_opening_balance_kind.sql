-- Opening balances are their own journal kind (issue 11 item 9). The demo seed posted them as
-- kind 'prepay' paid in 现金 (ref_type 'opening', 系统初始化), so every report and the home page
-- counted them as cash received on the day of installation. They become kind 'opening' with pay
-- method 'system': amounts, balances and keys are unchanged, so balance == Σ journal still holds.
-- The journal refuses changes by trigger; the migration (the table's owner) lifts it for this one
-- statement inside the migration's transaction.
ALTER TABLE journal DROP CONSTRAINT journal_kind_valid;
--> statement-breakpoint
ALTER TABLE journal ADD CONSTRAINT journal_kind_valid
  CHECK (kind IN ('prepay', 'refund', 'subsidy', 'deduction', 'fee', 'reversal', 'withdrawal', 'opening'));
--> statement-breakpoint
-- (the migrations run in one transaction: the RLS scope below is local to it)
SELECT set_config('app.all_companies', 'on', true);
--> statement-breakpoint
ALTER TABLE journal DISABLE TRIGGER journal_no_change;
--> statement-breakpoint
UPDATE journal SET kind = 'opening', pay_method = 'system' WHERE kind = 'prepay' AND ref_type = 'opening';
--> statement-breakpoint
ALTER TABLE journal ENABLE TRIGGER journal_no_change;
