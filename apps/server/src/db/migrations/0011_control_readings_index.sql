-- Readings are listed by company and time (抄表记录, 抄表日志, 用户账单): an index on the partitioned
-- parent is created on every partition, and on partitions made later by ensure_reading_partitions.
CREATE INDEX IF NOT EXISTS readings_company_time ON readings (company_id, read_at);
