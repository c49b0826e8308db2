import type { Tx } from '../../db/client.ts';
import { afterBalanceChange } from './alarms.ts';
import { postBatch, type Posting } from './ledger.ts';
import { monthKey } from './period.ts';
import * as repo from './repo/index.ts';

// Demo billing (DESIGN §2): the demo company's meters get charging and alarm schemes (kind by kind,
// in turn, so every pricing mode is seen), its owners opening balances — posted as journal rows of
// kind 'opening' (期初余额, pay method 系统: not money received that day), never written into
// balances — and two rooms a monthly timed subsidy. The simulator's
// readings then settle against these balances, so balances, bills and reports move.

/** Deterministic amounts in 分: most owners a comfortable balance, every ninth a low one (alarms show). */
const opening = (i: number, wallet: 'electric' | 'water') => {
  if (i % 9 === 4) return wallet === 'electric' ? 1500 : 800;
  const base = wallet === 'electric' ? 10000 : 5000;
  return base + ((i * 7919) % (wallet === 'electric' ? 40 : 15)) * 1000;
};

export async function seedBilling(tx: Tx, companyId: number) {
  const { charging, alarm } = await repo.schemesOf(tx, companyId);
  const byKind = (k: number) => charging.filter((s) => s.kind === k);
  const alarmFor = (k: number, i: number) => {
    const own = alarm.filter((a) => a.kind === k);
    if (!own.length) return null;
    // the overdraft-allowed scheme for every fifth electric meter, the default for the rest
    const plain = own.filter((a) => a.overdraftFen === 0);
    return (k === 1 && i % 5 === 4 ? own.find((a) => a.overdraftFen > 0) : plain[0] ?? own[0])?.id ?? null;
  };
  const meters = await repo.metersWithoutScheme(tx, companyId);
  const counters = { 1: 0, 2: 0 } as Record<number, number>;
  await repo.setMeterSchemes(tx, meters.flatMap((m) => {
    const list = byKind(m.kind);
    if (!list.length) return [];
    const i = counters[m.kind]++;
    return [{ id: m.id, schemeId: list[i % list.length].id, alarmSchemeId: alarmFor(m.kind, i) }];
  }));

  const owners = await repo.ownersWithMeters(tx, companyId);
  const postings: Posting[] = [];
  owners.forEach((o, i) => {
    for (const wallet of ['electric', 'water'] as const) {
      if (!(wallet === 'electric' ? o.electric : o.water)) continue;
      postings.push({
        companyId, ownerId: o.ownerId, roomId: o.roomId, wallet, kind: 'opening', amountFen: opening(i, wallet),
        idempotencyKey: `seed:opening:${o.ownerId}:${wallet}`, payMethod: 'system', refType: 'opening', operatorName: '系统初始化', memo: '期初余额',
      });
    }
  });
  const r = await postBatch(tx, postings);
  await afterBalanceChange(tx, r.moves);

  for (const o of owners.slice(0, 2)) {
    await repo.insertSubsidyPlan(tx, {
      companyId, roomId: o.roomId, wallet: 'electric', amountFen: 1000, dayOfMonth: 1, startMonth: monthKey(new Date()), memo: '困难家庭每月电费补贴',
    });
  }
  return { meters: meters.length, owners: owners.length, postings: postings.length };
}
