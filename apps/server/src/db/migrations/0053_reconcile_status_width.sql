-- 支付平台对账 of refund rows: our status of a refund still being processed is 'refund_processing'
-- (17 characters), over the column's 16: a statement with such a row could not be saved.
ALTER TABLE "reconcile_rows" ALTER COLUMN "our_status" TYPE varchar(24);
