import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  schema: './src/db/schema/index.ts',
  out: './src/db/migrations',
  // `readings` is partitioned by month: created by a hand-written migration, not by drizzle-kit
  tablesFilter: ['!readings'],
});
