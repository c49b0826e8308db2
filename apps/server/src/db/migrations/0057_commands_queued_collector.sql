-- The worker's claim (control/repo/commands.ts claimCommands) looks only at the collectors with a free
-- slot: their queued commands in claim order, and the distinct collectors with queued commands (a skip
-- scan), instead of ranking every queued command on every claim.
CREATE INDEX IF NOT EXISTS "commands_queued_collector" ON "commands" USING btree ("collector_id", (origin = 4), "next_attempt_at", "id") WHERE status = 'queued';
