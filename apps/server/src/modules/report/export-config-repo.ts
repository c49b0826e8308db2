import { eq, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { exportConfigs } from '../../db/schema/index.ts';

// The only SQL of the export configuration (导出配置): per company and export, the headers left out.

export function hiddenColumns(tx: Tx, companyId: number) {
  return tx
    .select({ key: exportConfigs.exportKey, hidden: exportConfigs.hidden, updatedAt: exportConfigs.updatedAt })
    .from(exportConfigs)
    .where(eq(exportConfigs.companyId, companyId));
}

export async function saveHidden(tx: Tx, companyId: number, userId: number, key: string, hidden: string[]) {
  await tx
    .insert(exportConfigs)
    .values({ companyId, exportKey: key, hidden, updatedBy: userId })
    .onConflictDoUpdate({
      target: [exportConfigs.companyId, exportConfigs.exportKey],
      set: { hidden: sql`excluded.hidden`, updatedBy: sql`excluded.updated_by`, updatedAt: sql`now()` },
    });
}
