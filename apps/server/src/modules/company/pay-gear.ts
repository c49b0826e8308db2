import type { z } from 'zod';
import { fenToYuan, type PayGearBody, type PayGearQuery } from '@meter/contracts';
import { companyOf, isPlatform, platformTx, type Ctx } from '../../http/context.ts';
import { notFound } from '../../http/errors.ts';
import * as repo from './repo.ts';

// 充值档位 (Company/GetPayGear, SavePayGear): the amounts a company offers its owners when they pay
// online (and the counter's quick amounts), ascending, in 分. Staff read their own company's; a
// platform admin reads and sets any company's (companyId, else the picked one).

const answer = (companyId: number, gears: number[]) => ({ companyId, gearsFen: gears, gears: gears.map((f) => fenToYuan(f)) });

function target(ctx: Ctx, companyId: number | undefined) {
  return companyId != null && isPlatform(ctx.user) ? companyId : companyOf(ctx);
}

export async function getPayGear(ctx: Ctx, q: z.output<typeof PayGearQuery>) {
  const id = target(ctx, q.companyId);
  const gears = await platformTx(ctx, (tx) => repo.payGears(tx, id));
  if (!gears) throw notFound('单位');
  return answer(id, gears);
}

export async function savePayGear(ctx: Ctx, b: z.output<typeof PayGearBody>) {
  const id = target(ctx, b.companyId);
  return platformTx(ctx, async (tx) => {
    const c = await repo.getCompany(tx, id);
    if (!c) throw notFound('单位');
    ctx.audit.target = `单位 ${c.name} 充值档位：${b.gears.length ? b.gears.map((f) => `¥${fenToYuan(f)}`).join('、') : '无'}`;
    await repo.updateCompany(tx, id, { payGears: b.gears });
    return answer(id, b.gears);
  });
}
