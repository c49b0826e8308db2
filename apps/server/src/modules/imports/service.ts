import { createHash } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import { IMPORT_KIND_LABELS, IMPORT_MAX_BYTES, IMPORT_PERMS, type ImportKind, type ImportPreview, type ImportResult } from '@meter/contracts';
import { SYSTEM_SCOPE, type Tx } from '../../db/client.ts';
import { companyOf, type Ctx } from '../../http/context.ts';
import { Page } from '../../http/envelope.ts';
import { refuse } from '../../http/errors.ts';
import { offsetOf } from '../../http/paging.ts';
import { checkPerm } from '../../http/routes.ts';
import { post, type Wallet } from '../billing/index.ts';
import { companyPlans } from '../device/index.ts';
import { COLUMNS } from './columns.ts';
import * as repo from './repo.ts';
import {
  areaPaths, checkAreas, checkCollectors, checkMeters, checkOpenings, checkOwners, checkRooms,
  type AreaPlan, type Checked, type CollectorPlan, type Issue, type MeterPlan, type OpeningPlan, type OwnerPlan, type Refs, type RoomPlan,
} from './validate.ts';
import { readSheet, templateBuffer, type SheetRow } from './workbook.ts';

// Excel import (issue 15 item 9, issue 14 item 12). A file is read, every row checked against the
// forms' rules in the caller's company (validate.ts); the preview answers every problem; a commit
// checks again inside ONE transaction and writes all rows or none. The file's sha-256 is recorded per
// company and kind (import_batches): the same file committed again writes nothing. Opening balances
// are posted through billing's ledger as kind 'opening' (pay method 'system'), never as cash.

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
/** rows of the file shown in the preview table */
const PREVIEW_ROWS = 200;
/** problems named in a refused commit's message */
const NAMED_IN_MESSAGE = 5;

function allowed(ctx: Ctx, kind: ImportKind) {
  checkPerm(ctx, IMPORT_PERMS[kind]);
  return companyOf(ctx);
}

const attachment = (name: string) => `attachment; filename="import-template.xlsx"; filename*=UTF-8''${encodeURIComponent(name)}`;

export async function template(ctx: Ctx, kind: ImportKind, reply: FastifyReply) {
  checkPerm(ctx, IMPORT_PERMS[kind]);
  const buf = await templateBuffer(IMPORT_KIND_LABELS[kind], COLUMNS[kind]);
  return reply
    .header('Content-Type', XLSX_TYPE)
    .header('Content-Disposition', attachment(`${IMPORT_KIND_LABELS[kind]}导入模板.xlsx`))
    .header('Cache-Control', 'no-store')
    .send(buf);
}

interface FileIn {
  fileName: string;
  content: string;
}

function decode(f: FileIn) {
  const buf = Buffer.from(f.content, 'base64');
  if (buf.length > IMPORT_MAX_BYTES) throw refuse('IMPORT_FILE_TOO_LARGE', '文件过大：最大 3 MB，请拆分后分批导入');
  if (!/\.xlsx$/i.test(f.fileName)) throw refuse('IMPORT_FILE_INVALID', '请上传 .xlsx 格式的 Excel 文件（可先下载导入模板）');
  return { buf, hash: createHash('sha256').update(buf).digest('hex') };
}

/** What the rows are checked against: the company's data (caller's scope) and the platform-wide keys. */
async function refsFor(ctx: Ctx, tx: Tx, kind: ImportKind, companyId: number, rows: SheetRow[]): Promise<Refs> {
  const cells = (header: string) => [...new Set(rows.map((r) => r.values[header] ?? '').filter(Boolean))];
  const needsDevices = kind === 'collector' || kind === 'meter';
  const [chargingSchemes, alarmSchemes] = kind === 'meter' ? await repo.schemesOf(tx, companyId) : [[], []];
  const imeis = kind === 'collector' ? cells('IMEI') : kind === 'meter' ? cells('表具 IMEI') : [];
  const addresses = kind === 'meter' ? cells('表地址') : [];
  // addresses and IMEIs are unique across companies: looked up outside the tenant scope
  const [takenImeis, takenAddresses, areas] = await ctx.db.tx(SYSTEM_SCOPE, async (sys) =>
    [await repo.takenImeis(sys, imeis), await repo.takenAddresses(sys, addresses), await repo.companyAreas(sys, companyId)] as const);
  return {
    areas,
    visibleAreaIds: ctx.scope.areaIds == null ? null : await repo.visibleAreaIds(tx, companyId),
    rooms: kind === 'area' || kind === 'collector' ? [] : await repo.visibleRooms(tx, companyId),
    restricted: ctx.scope.areaIds != null,
    chargingTypes: kind === 'room' ? await repo.chargingTypesOf(tx, companyId) : [],
    chargingSchemes,
    alarmSchemes,
    lookups: kind === 'meter' ? await repo.lookups(tx) : [],
    plans: needsDevices ? await companyPlans(tx, companyId) : undefined,
    collectors: kind === 'meter' ? await repo.collectorsOf(tx, companyId) : [],
    owners: kind === 'owner' || kind === 'opening' ? await repo.ownersOf(tx, companyId) : [],
    journal: kind === 'opening' ? await repo.journalKindsByOwner(tx, companyId) : new Map(),
    takenImeis,
    takenAddresses,
  };
}

type Plans = AreaPlan | RoomPlan | OwnerPlan | CollectorPlan | MeterPlan | OpeningPlan;

function check(kind: ImportKind, rows: SheetRow[], refs: Refs): Checked<Plans> {
  switch (kind) {
    case 'area': return checkAreas(rows, refs);
    case 'room': return checkRooms(rows, refs);
    case 'owner': return checkOwners(rows, refs);
    case 'collector': return checkCollectors(rows, refs);
    case 'meter': return checkMeters(rows, refs);
    case 'opening': return checkOpenings(rows, refs);
  }
}

interface Examined {
  rows: SheetRow[];
  issues: Issue[];
  checked: Checked<Plans>;
}

async function examine(ctx: Ctx, tx: Tx, kind: ImportKind, companyId: number, buf: Buffer): Promise<Examined> {
  const sheet = await readSheet(buf, COLUMNS[kind]);
  const missing: Issue[] = sheet.missing.map((h) => ({ row: 1, column: h, message: `缺少必填列「${h}」，请使用导入模板` }));
  if (missing.length) return { rows: sheet.rows, issues: missing, checked: { issues: [], rows: [] } };
  if (!sheet.rows.length) return { rows: [], issues: [{ row: 2, column: '', message: '文件中没有要导入的数据（示例行不会导入）' }], checked: { issues: [], rows: [] } };
  const checked = check(kind, sheet.rows, await refsFor(ctx, tx, kind, companyId, sheet.rows));
  const order = new Map(COLUMNS[kind].map((c, i) => [c.header, i]));
  const issues = [...checked.issues].sort((a, b) => a.row - b.row || (order.get(a.column) ?? -1) - (order.get(b.column) ?? -1));
  return { rows: sheet.rows, issues, checked };
}

export async function preview(ctx: Ctx, kind: ImportKind, f: FileIn): Promise<ImportPreview> {
  const companyId = allowed(ctx, kind);
  const { buf, hash } = decode(f);
  return ctx.tx(async (tx) => {
    const e = await examine(ctx, tx, kind, companyId, buf);
    const prior = await repo.findBatch(tx, companyId, kind, hash);
    const bad = new Set(e.issues.map((i) => i.row));
    return {
      kind,
      fileName: f.fileName,
      fileHash: hash,
      columns: COLUMNS[kind].map((c) => c.header),
      total: e.rows.length,
      okCount: e.issues.some((i) => i.row === 1) ? 0 : e.rows.filter((r) => !bad.has(r.row)).length,
      errorCount: bad.size,
      errors: e.issues,
      rows: e.rows.slice(0, PREVIEW_ROWS).map((r) => ({ row: r.row, values: r.values, ok: !bad.has(r.row) })),
      alreadyImported: prior ? { at: prior.createdAt.toISOString(), operatorName: prior.operatorName, rows: prior.rows } : null,
    };
  });
}

const operatorName = (ctx: Ctx) => ctx.user.realName || ctx.user.username;

export async function commit(ctx: Ctx, kind: ImportKind, f: FileIn): Promise<ImportResult> {
  const companyId = allowed(ctx, kind);
  const { buf, hash } = decode(f);
  const label = IMPORT_KIND_LABELS[kind];
  ctx.audit.target = `导入${label}（${f.fileName}）`;
  return ctx.tx(async (tx) => {
    await repo.lockImports(tx, companyId);
    const prior = await repo.findBatch(tx, companyId, kind, hash);
    if (prior) {
      ctx.audit.target = `导入${label}（${f.fileName}）：该文件已导入过，未重复导入`;
      return { batchId: prior.id, imported: 0, duplicate: true, message: `该文件已于之前导入（${prior.rows} 行，操作人 ${prior.operatorName}），本次未重复导入` };
    }
    const e = await examine(ctx, tx, kind, companyId, buf);
    if (e.issues.length) {
      const named = e.issues.slice(0, NAMED_IN_MESSAGE).map((i) => `第 ${i.row} 行${i.column ? `「${i.column}」` : ''}：${i.message}`).join('；');
      throw refuse('IMPORT_INVALID', `文件中有 ${e.issues.length} 处错误，未导入任何数据。${named}${e.issues.length > NAMED_IN_MESSAGE ? ' 等' : ''}`);
    }
    await write(ctx, tx, kind, companyId, e.checked.rows);
    const batchId = await repo.insertBatch(tx, {
      companyId, kind, fileHash: hash, fileName: f.fileName.slice(0, 200), rows: e.checked.rows.length, operatorId: ctx.user.id, operatorName: operatorName(ctx),
    });
    ctx.audit.target = `导入${label} ${e.checked.rows.length} 行（${f.fileName}）`;
    return { batchId, imported: e.checked.rows.length, duplicate: false, message: `已导入${label} ${e.checked.rows.length} 行` };
  }).catch((err: unknown) => {
    // a row another request wrote meanwhile (a unique key): nothing was written
    const pg = (err as { code?: string; cause?: { code?: string } }) ?? {};
    if ((pg.code ?? pg.cause?.code) === '23505') throw refuse('IMPORT_CONFLICT', '导入期间有数据被其他操作占用（编号或地址重复），未导入任何数据，请重新预览后再导入');
    throw err;
  });
}

async function write(ctx: Ctx, tx: Tx, kind: ImportKind, companyId: number, rows: Plans[]) {
  switch (kind) {
    case 'area': return writeAreas(ctx, tx, companyId, rows as AreaPlan[]);
    case 'room': return repo.insertRooms(tx, (rows as RoomPlan[]).map((r) => ({
      companyId, name: r.name, areaId: r.areaId, decoration: r.decoration, orientation: r.orientation, chargingTypeId: r.chargingTypeId,
      sizeM2: r.sizeM2, status: r.status, memo: r.memo,
    })));
    case 'owner': return writeOwners(ctx, tx, companyId, rows as OwnerPlan[]);
    case 'collector': return repo.insertCollectors(tx, (rows as CollectorPlan[]).map((r) => ({
      companyId, name: r.name, imei: r.imei, plan: r.plan, areaId: r.areaId, simNo: r.simNo, installAddress: r.installAddress, memo: r.memo,
    })));
    case 'meter': return repo.insertMeters(tx, (rows as MeterPlan[]).map((v) => ({
      companyId, name: v.name, kind: v.kind, plan: v.plan, address: v.address, roomId: v.roomId, collectorId: v.collectorId, imei: v.imei,
      protocolId: v.protocolId, baudId: v.baudId, phaseId: v.phaseId, gatewayId: v.gatewayId, portId: v.portId, brandId: v.brandId,
      caliberId: v.caliberId, typeId: v.typeId, multiplier: v.multiplier, initialReading: v.initialReading, chargingSchemeId: v.chargingSchemeId,
      alarmSchemeId: v.alarmSchemeId, installDate: v.installDate ?? '', reportIntervalMinutes: v.reportInterval ?? 0, status: v.status, memo: v.memo,
    })));
    case 'opening': return writeOpenings(ctx, tx, companyId, rows as OpeningPlan[]);
  }
}

/** Parents first (the rows come sorted by depth): a parent is one of the company's areas or a row above. */
async function writeAreas(ctx: Ctx, tx: Tx, companyId: number, rows: AreaPlan[]) {
  const existing = await ctx.db.tx(SYSTEM_SCOPE, (sys) => repo.companyAreas(sys, companyId));
  const known = new Map<string, { id: number; deep: number; classifyId: number | null }>(areaPaths(existing).paths);
  for (const r of rows) {
    const parent = r.parentPath ? known.get(r.parentPath) : undefined;
    if (r.parentPath && !parent) throw refuse('IMPORT_INVALID', `上级区域「${r.parentPath}」不存在，未导入任何数据`);
    const deep = parent ? parent.deep + 1 : 0;
    const id = await repo.insertArea(tx, {
      companyId, parentId: parent?.id ?? null, name: r.name, areaType: r.areaType, deep, classifyId: parent?.classifyId ?? null,
      province: r.province, city: r.city, district: r.district, town: r.town, sort: r.sort,
    });
    known.set(r.path, { id, deep, classifyId: parent?.classifyId ?? null });
  }
}

async function writeOwners(ctx: Ctx, tx: Tx, companyId: number, rows: OwnerPlan[]) {
  const ids = await repo.insertOwners(tx, rows.map((r) => ({
    companyId, name: r.name, phone: r.phone, idNumber: r.idNumber ?? '', gender: r.gender ?? 0, email: r.email ?? '', memo: r.memo ?? '',
    roomId: r.room?.id ?? null, status: r.room ? 1 : 0, movedInAt: r.room ? new Date() : null,
  })));
  const moves = rows.flatMap((r, i) => (r.room ? [{
    companyId, ownerId: ids[i], ownerName: r.name, ownerPhone: r.phone, roomId: r.room.id, areaId: r.room.areaId, roomName: r.room.path,
    action: 1, operatorId: ctx.user.id, operatorName: operatorName(ctx), memo: '导入业主时入住',
  }] : []));
  await repo.insertHistory(tx, moves);
}

/** Each balance as one journal row of kind opening through the ledger (balance == Σ journal holds). */
async function writeOpenings(ctx: Ctx, tx: Tx, companyId: number, rows: OpeningPlan[]) {
  for (const r of rows) {
    const p = await post(tx, {
      companyId, ownerId: r.ownerId, roomId: r.roomId, wallet: r.wallet as Wallet, kind: 'opening', amountFen: r.amountFen,
      idempotencyKey: `import:opening:${r.ownerId}:${r.wallet}`, payMethod: 'system', refType: 'opening',
      operatorId: ctx.user.id, operatorName: operatorName(ctx), memo: r.memo,
    });
    if (p.duplicate) throw refuse('IMPORT_INVALID', `业主「${r.ownerName}」的期初余额已导入过，未导入任何数据`);
  }
}

export async function log(ctx: Ctx, q: { index: number; size: number; kind?: ImportKind }) {
  const r = await ctx.tx((tx) => repo.pageBatches(tx, { companyId: ctx.scope.companyId, kind: q.kind }, q.size, offsetOf(q)));
  return new Page(
    r.rows.map((b) => ({
      id: b.id, kind: b.kind, kindName: IMPORT_KIND_LABELS[b.kind as ImportKind] ?? b.kind, fileName: b.fileName, fileHash: b.fileHash, rows: b.rows,
      operatorName: b.operatorName, createdAt: b.createdAt,
    })),
    r.count,
  );
}
