import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { SANDBOX_SUB_MER } from './emulator.ts';

// Demo data of the bank sub-merchants: the demo company's bank information, one opened sub-merchant
// (the bank emulator's sandbox sub-account, which always exists there with money), one application
// still waiting for its code, and the log rows of how the first one was opened.

const HOUR = 3600_000;

export async function seedBankDemo(tx: Tx, companyId: number, at = new Date()) {
  const bank = (await tx.execute(sql`SELECT id FROM banks WHERE bank_type = 0 ORDER BY sort LIMIT 1`)).rows[0];
  const bankId = bank ? Number(bank.id) : null;
  await tx.execute(sql`
    INSERT INTO company_bank_infos (company_id, mer_id, branch_name, account_name, account_no, contact_name, phone)
    VALUES (${companyId}, '103881000000001', '中国农业银行深圳科技园支行', '阳光物业演示公司', '41005600040012345', '张经理', '13800138000')
    ON CONFLICT (company_id) DO NOTHING`);
  const ago = (h: number) => new Date(at.getTime() - h * HOUR).toISOString();
  const active = Number((await tx.execute(sql`
    INSERT INTO property_infos (company_id, name, short_name, license_no, legal_person, legal_id_no, contact_name, phone, address, bank_id,
      account_name, account_no, status, sub_mer_id, activated_at, created_at, updated_at)
    VALUES (${companyId}, '阳光物业演示公司科技园管理处', '阳光科技园', '91440300MA5FXXXX1K', '张三', '440305198001011234', '张经理', '13800000000',
      '深圳市南山区科技园', ${bankId}, '阳光物业演示公司', '6228480000000000000', 'active', ${SANDBOX_SUB_MER}, ${ago(70)}, ${ago(74)}, ${ago(70)})
    RETURNING id`)).rows[0].id);
  await tx.execute(sql`
    INSERT INTO property_infos (company_id, name, short_name, license_no, legal_person, legal_id_no, contact_name, phone, address, bank_id,
      account_name, account_no, status, created_at, updated_at)
    VALUES (${companyId}, '阳光物业演示公司二期管理处', '阳光二期', '91440300MA5FYYYY2L', '李四', '440305198502021235', '李主管', '13900000000',
      '深圳市南山区科技园二期', ${bankId}, '阳光物业演示公司', '6228480000000000001', 'draft', ${ago(2)}, ${ago(2)})`);
  const steps: [string, string, string, string, number][] = [
    ['RegSubMerInfo', 'draft', 'applied', `已提交中国农业银行，子商户号 ${SANDBOX_SUB_MER}`, 74],
    ['SendMobileMessageForSubMer', 'applied', 'code_sent', '验证码已发送至 138****0000，银行已向结算账户打入一笔随机金额', 73],
    ['VerifyMessageCodeAndRandomAmount', 'code_sent', 'verified', '验证通过，可申请开通', 72],
    ['UpdateSubMerchantStatusRequest', 'verified', 'active', '子商户已开通', 70],
    ['SubAccQuery', 'active', 'active', '可用余额 ¥12860.50', 1],
  ];
  for (const [action, from, to, message, h] of steps) {
    await tx.execute(sql`
      INSERT INTO bank_logs (company_id, property_id, sub_mer_id, bank_name, action, ok, message, status_from, status_to, operator_name, created_at)
      VALUES (${companyId}, ${active}, ${SANDBOX_SUB_MER}, '中国农业银行', ${action}, true, ${message}, ${from}, ${to}, '平台管理员', ${ago(h)})`);
  }
}
