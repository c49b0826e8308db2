import { sql } from 'drizzle-orm';
import { SYSTEM_SCOPE, openDb } from '../../../db/client.ts';
import * as repo from '../repo/index.ts';
import { settleMeters } from '../settlement.ts';

// The settlement worker as a separate process, for the crash test (settlement-crash.int.test.ts):
// argv[2] is the app role's database URL, argv[3] the company to settle. With SLOW=1 every batch
// holds its transaction open a little after writing (so a kill -9 lands inside one); the settlement
// code itself is the real one. Prints "done <readings>" when nothing is left.

const [url, company] = [process.argv[2], Number(process.argv[3])];
const slow = process.env.SLOW === '1';
const db = openDb(url, 4);

async function main() {
  let total = 0;
  for (;;) {
    const ids = await db.read(SYSTEM_SCOPE, (r) => repo.pendingMeters(r, 0, 1000));
    const mine = await db.tx(SYSTEM_SCOPE, async (tx) => {
      const r = await tx.execute(sql`SELECT id FROM meters WHERE id = ANY(${repo.arr(ids)}::bigint[]) AND company_id = ${company}`);
      return r.rows.map((x) => Number(x.id));
    });
    if (!mine.length) break;
    for (let i = 0; i < mine.length; i += 10) {
      const n = await db.tx(SYSTEM_SCOPE, async (tx) => {
        const r = await settleMeters(tx, mine.slice(i, i + 10), { skipLocked: true, perMeter: 3 });
        if (slow) await tx.execute(sql`SELECT pg_sleep(0.03)`);
        return r.readings;
      });
      total += n;
      process.stdout.write(`settled ${total}\n`);
    }
  }
  process.stdout.write(`done ${total}\n`);
  await db.close();
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
