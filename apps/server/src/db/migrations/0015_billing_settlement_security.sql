-- 公摊 meters are tenant rows; the 'other' wallet holds 综合缴费 items (cash in, fee out, net zero).
CALL app_enable_tenancy('shared_meters');
--> statement-breakpoint
ALTER TABLE accounts DROP CONSTRAINT IF EXISTS accounts_wallet_valid;
--> statement-breakpoint
ALTER TABLE accounts ADD CONSTRAINT accounts_wallet_valid CHECK (wallet IN ('electric', 'water', 'subsidy', 'other'));
--> statement-breakpoint
-- a settlement, once written, is the record of a deduction: the app may add settlements, never rewrite them
REVOKE UPDATE, DELETE, TRUNCATE ON settlements FROM meter_app;
--> statement-breakpoint
-- a receipt shows money paid or paid back: never a negative amount
ALTER TABLE receipts ADD CONSTRAINT receipts_amount_positive CHECK (amount_fen >= 0);
