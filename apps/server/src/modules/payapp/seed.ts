import { sql } from 'drizzle-orm';
import { withdrawalFeeFen } from '@meter/contracts';
import type { Tx } from '../../db/client.ts';
import * as repo from './repo.ts';

// Demo data of the pay-application (汇付) accounts, so /huifu and /noteswithdraw show something to a
// new user: the demo company's opened collecting account with a month of online receipts, a withdrawal
// that reached the bank and one the bank sent back (its amount and fee returned to the balance), and a
// second account still waiting for the provider (the worker's provider poll opens it). Every journal
// row carries the balance after it, as the service writes them.

const DAY = 86400_000;

export async function seedPayAppDemo(tx: Tx, companyId: number, at = new Date()) {
  const admin = (await tx.execute(sql`SELECT id, real_name FROM admin_users WHERE company_id = ${companyId} ORDER BY id LIMIT 1`)).rows[0];
  if (!admin) return;
  const by = Number(admin.id);
  const who = String(admin.real_name || '演示管理员');
  const base = { companyId, kind: 1, legalPerson: '张三', contactName: '张经理', idNo: '91440300MA5FXXXX1K', phone: '13800138000', createdBy: by };
  const appId = await repo.insertApp(tx, {
    ...base, name: '阳光物业汇付收款账户', bankName: '中国农业银行深圳科技园支行', bankAccountName: '阳光物业演示公司', bankAccountNo: '6228480012345678901', memo: '演示：在线缴费的收款账户',
  });
  await repo.insertApp(tx, {
    ...base, name: '阳光物业二期收款账户', bankName: '招商银行深圳南山支行', bankAccountName: '阳光物业演示公司', bankAccountNo: '6214830012345678', memo: '演示：二期开通中',
  });
  if (appId == null) return;
  await repo.setStatus(tx, appId, 'opened', { providerAppId: 'app_demo_0001', reason: '' });

  let balance = 0;
  // the journal is append-only (migration 0025): its rows carry the time of the seed
  const post = async (e: Omit<repo.JournalEntry, 'companyId' | 'appId' | 'balanceAfterFen'>) => {
    balance += e.amountFen;
    await repo.insertJournal(tx, { ...e, companyId, appId, balanceAfterFen: balance });
  };
  for (const [i, fen] of [128000, 86550, 231500, 45800, 172025].entries()) {
    await post({ kind: 'collect', amountFen: fen, key: `demo:collect:${i}`, refType: 'payment', refId: null, operatorName: i % 2 ? '支付宝' : '微信支付', memo: '在线支付收款（演示）' });
  }
  const withdrawal = async (requestId: string, amountFen: number, daysAgo: number, failed?: string) => {
    const feeFen = withdrawalFeeFen(amountFen);
    const w = await repo.insertWithdrawal(tx, {
      companyId, appId, requestId, amountFen, feeFen, bankName: '中国农业银行深圳科技园支行', bankAccountName: '阳光物业演示公司', bankAccountNo: '6228480012345678901',
      memo: '月度提现', operatorId: by, operatorName: who,
    });
    await post({ kind: 'withdrawal', amountFen: -amountFen, key: `wd:${w.id}`, refType: 'withdrawal', refId: w.id, operatorName: who, memo: '提现至 中国农业银行深圳科技园支行 尾号8901' });
    await post({ kind: 'fee', amountFen: -feeFen, key: `wdfee:${w.id}`, refType: 'withdrawal', refId: w.id, operatorName: who, memo: '提现手续费' });
    await repo.finishWithdrawal(tx, w.id, failed ? 2 : 1, failed ?? '');
    if (failed) await post({ kind: 'reversal', amountFen: amountFen + feeFen, key: `wdback:${w.id}`, refType: 'withdrawal', refId: w.id, operatorName: '系统', memo: `提现失败退回：${failed}` });
    await tx.execute(sql`
      UPDATE pay_app_withdrawals SET created_at = ${new Date(at.getTime() - daysAgo * DAY).toISOString()},
        finished_at = ${new Date(at.getTime() - (daysAgo - 1) * DAY).toISOString()} WHERE id = ${w.id}`);
  };
  await withdrawal('demo-withdrawal-1', 300000, 10);
  await withdrawal('demo-withdrawal-2', 100000, 4, '收款账户户名与开户名不一致');
  await repo.setBalance(tx, appId, balance);
}
