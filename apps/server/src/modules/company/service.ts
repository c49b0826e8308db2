import type { z } from 'zod';
import {
  BANK_NAMES, COLLECTOR_PLANS, EDITION_TITLES, NOTIFY_TYPES, UNIT_LABELS,
  type DevicePermissBody, type DevicePermissQuery,
} from '@meter/contracts';
import type { Tx } from '../../db/client.ts';
import { companyOf, platformTx, type Ctx } from '../../http/context.ts';
import { Page } from '../../http/envelope.ts';
import { badRequest, conflict, notFound, refuse } from '../../http/errors.ts';
import * as repo from './repo.ts';
import * as valvePwd from './valve-password.ts';

// Companies (单位) for platform admins (/belongs), and what company staff read of their own company.

/**
 * Company management is platform-wide: the company a platform admin picked in the header
 * (searchCompanyID) narrows business pages, not the list of companies itself. Staff stay in their scope.
 */
const companyTx = platformTx;

/** The companies a user may pick in the header: one for company staff, all for a platform admin. */
export const userCompanies = (ctx: Ctx) => ctx.tx(repo.visibleCompanies);

/** The company classifies, for selects. */
export const classifyOptions = (ctx: Ctx) => ctx.tx(repo.classifyOptions);

type Row = NonNullable<Awaited<ReturnType<typeof repo.getCompany>>>;

/** The company (as the transaction's scope sees it); 未找到单位 when there is none. */
async function companyRow(tx: Tx, id: number): Promise<Row> {
  const r = await repo.getCompany(tx, id);
  if (!r) throw notFound('单位');
  return r;
}

const yuan = (fen: number) => (fen / 100).toFixed(2);

/** A company as answered: names of its codes and the SMS prices by notify type (SPEC §3). */
export function present(r: Row) {
  return {
    ...r,
    bankName: BANK_NAMES[r.bankType] ?? '',
    editionName: EDITION_TITLES[r.edition] ?? '',
    unitLabel: UNIT_LABELS[r.edition] ?? '',
    smsPrices: [
      { notifyType: 1, name: NOTIFY_TYPES[1], priceFen: r.smsPriceFen, price: yuan(r.smsPriceFen) },
      { notifyType: 2, name: NOTIFY_TYPES[2], priceFen: r.phonePriceFen, price: yuan(r.phonePriceFen) },
    ],
  };
}

/** the declared list query: paging and the resource's search fields */
type ListQuery = Record<string, unknown> & { index: number; size: number };

export async function list(ctx: Ctx, query: ListQuery) {
  const classifyId = (query.classifyId as number | undefined) ?? (query.searchClassify as number | undefined);
  const r = await companyTx(ctx, (tx) =>
    repo.listCompanies(tx, { name: query.name as string | undefined, classifyId }, query.size, (query.index - 1) * query.size),
  );
  return new Page(r.rows.map(present), r.count);
}

export async function get(ctx: Ctx, id: number) {
  return present(await companyTx(ctx, (tx) => companyRow(tx, id)));
}

/**
 * registerCrud's beforeWrite of a company: its classify must exist; the valve password is stored as a
 * hash and is write-only (blank on edit keeps the one set before, blank on create = none).
 */
export async function beforeWrite(tx: Tx, _ctx: Ctx, v: Record<string, unknown>, id?: number) {
  if (v.classifyId != null && !(await repo.classifyExists(tx, v.classifyId as number))) throw badRequest('参数「classifyId」单位分类不存在');
  if (id !== undefined && !v.valveControlPwd) delete v.valveControlPwd;
  else v.valveControlPwd = await valvePwd.hashIfSet(v.valveControlPwd as string | null);
}

const HOLDING_LABELS: Record<string, [string, string]> = {
  users: ['账号', '个'],
  areas: ['区域', '个'],
  rooms: ['房间', '间'],
  meters: ['表具', '块'],
  collectors: ['采集器', '台'],
  owners: ['业主', '位'],
};

/** Chinese names of tenant tables for the "still has data" message; others show their table name. */
const TABLE_LABELS: Record<string, string> = {
  charging_types: '收费类型',
  charging_schemes: '收费方案',
  charging_scheme_versions: '收费方案价格',
  company_charge_codes: '收费码',
  alarm_schemes: '报警方案',
  focus_devices: '关注设备',
  owner_room_history: '入住记录',
  commands: '设备指令',
  readings: '抄表数据',
  meter_latest: '表具最新读数',
  read_tasks: '抄表任务',
  device_warnings: '设备预警',
  device_reports: '设备上报',
  protections: '保电保水',
  timed_controls: '定时阀控',
  company_third: '第三方配置',
  meter_configs: '表具配置',
};

/** Deleted together with the company: its own configuration, and the audit log (kept for history). */
const DELETED_WITH_COMPANY = ['roles', 'area_permissions', 'sessions', 'user_areas', 'audit_log', 'company_configs', 'export_configs', 'companies'];

export async function remove(ctx: Ctx, ids: number[]) {
  return companyTx(ctx, async (tx) => {
    const rows = [];
    for (const id of ids) {
      rows.push(await companyRow(tx, id));
    }
    ctx.audit.target = rows.map((r) => `单位 ${r.name}`).join('、').slice(0, 400);
    for (const r of rows) {
      const h = await repo.companyHoldings(tx, r.id);
      const parts = Object.entries(h)
        .filter(([, n]) => n > 0)
        .map(([k, n]) => `${HOLDING_LABELS[k][0]} ${n} ${HOLDING_LABELS[k][1]}`);
      if (parts.length) throw conflict(`单位「${r.name}」下还有${parts.join('、')}，不能删除`);
      const other = await repo.otherCompanyData(tx, r.id, [...DELETED_WITH_COMPANY, 'admin_users', 'areas', 'rooms', 'meters', 'collectors', 'owners']);
      if (other.length) {
        throw conflict(`单位「${r.name}」下还有${other.map((o) => `${TABLE_LABELS[o.table] ?? o.table} ${o.n} 条`).join('、')}，不能删除`);
      }
    }
    for (const r of rows) await repo.deleteCompany(tx, r.id);
    return null;
  });
}

/** CompanyInfo: the caller's company (a platform admin's picked one), or null for a platform admin without a pick. */
export async function info(ctx: Ctx) {
  const id = ctx.scope.companyId ?? ctx.user.companyId;
  if (id == null) return null;
  return present(await ctx.tx((tx) => companyRow(tx, id)));
}

/** GetReceiptAccount: who receives the money on receipts: the company and its settlement bank. */
export async function receiptAccount(ctx: Ctx) {
  const id = companyOf(ctx);
  const r = await ctx.tx((tx) => companyRow(tx, id));
  return {
    companyId: r.id,
    companyName: r.name,
    accountName: r.name,
    bankType: r.bankType,
    bankName: BANK_NAMES[r.bankType] ?? '',
    contact: r.contact,
    phone: r.phone,
    address: r.address,
  };
}

/**
 * getValveControlPwd: the caller's company's valve-control password, which the valve dialog compares
 * with what the operator types (SPEC §5). Staff always get their own company's; a platform admin the
 * picked company's.
 */
/** CompanyDevicePermiss GET: the plans a company may use, and the effective lists (all when unchecked). */
export async function devicePermiss(ctx: Ctx, q: z.output<typeof DevicePermissQuery>) {
  const id = q.companyId ?? companyOf(ctx);
  const r = await companyTx(ctx, (tx) => companyRow(tx, id));
  return {
    companyId: r.id,
    companyName: r.name,
    deviceCheck: r.deviceCheck,
    collectorPlans: r.collectorPlans,
    electricPlans: r.electricPlans,
    waterPlans: r.waterPlans,
  };
}

/**
 * CompanyDevicePermiss POST. With the check on, a plan the company's collectors or meters use now
 * cannot be unticked (they would become unusable); the message names them.
 */
export async function saveDevicePermiss(ctx: Ctx, b: z.output<typeof DevicePermissBody>) {
  return companyTx(ctx, async (tx) => {
    const r = await companyRow(tx, b.companyId);
    ctx.audit.target = `单位 ${r.name} 设备权限`;
    if (b.deviceCheck) {
      const used = await repo.plansInUse(tx, b.companyId);
      const missing: string[] = [];
      for (const c of used.collectors) {
        if (!b.collectorPlans.includes(c.plan)) missing.push(`采集器「${COLLECTOR_PLANS[c.plan] ?? c.plan}」${c.n} 台`);
      }
      for (const m of used.meters) {
        const list = m.kind === 2 ? b.waterPlans : b.electricPlans;
        if (!list.includes(m.plan)) missing.push(`${m.kind === 2 ? '水表' : '电表'}类型 ${m.plan} ${m.n} 块`);
      }
      if (missing.length) throw refuse('PLAN_IN_USE', `单位正在使用以下设备类型，请先勾选：${missing.join('、')}`);
    }
    await repo.setDevicePermiss(tx, b.companyId, {
      deviceCheck: b.deviceCheck,
      collectorPlans: b.collectorPlans,
      electricPlans: b.electricPlans,
      waterPlans: b.waterPlans,
    });
    return null;
  });
}
