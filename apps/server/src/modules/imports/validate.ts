import {
  AREA_MAX_DEEP, LOOKUP_KINDS, METER_KINDS, addressDigits, areaResource, collectorResource,
  fieldSchema, formSchema, meterResource, ownerResource, roomResource, yuanToFen, type DevicePermiss, type ImportKind, type LookupKind, type ResourceDef,
} from '@meter/contracts';
import { collectorPlanRefusal, meterPlanInvalid, meterPlanRefusal } from '../device/index.ts';
import { COLUMNS, WALLET_OPTIONS, headerOf } from './columns.ts';
import type { AreaRef, OwnerRef, RoomRef } from './repo.ts';
import type { SheetRow } from './workbook.ts';

// Every row of a file checked with the forms' rules (the contracts resources' zod schemas) and the
// rules the services add (references in the caller's company, names unique where the forms demand
// it, plans the company may use, addresses and IMEIs unique on the platform), plus duplicates within
// the file. Pure: the reference data comes in (`Refs`), the problems and the rows to write go out.

export interface Issue {
  row: number;
  column: string;
  message: string;
}

export interface Refs {
  /** every area of the company (paths are named from the top of the tree) */
  areas: AreaRef[];
  /** the areas the caller may use; null: all of them */
  visibleAreaIds: Set<number> | null;
  /** the rooms the caller can see */
  rooms: RoomRef[];
  /** the caller is bound to areas (may not add top-level areas) */
  restricted: boolean;
  chargingTypes: { id: number; name: string; status: number }[];
  chargingSchemes: { id: number; name: string; kind: number }[];
  alarmSchemes: { id: number; name: string; kind: number }[];
  lookups: { id: number; kind: string; name: string; code: string }[];
  plans?: DevicePermiss;
  collectors: { id: number; imei: string }[];
  owners: OwnerRef[];
  journal: Map<number, { openings: string[]; others: number }>;
  /** platform-wide: IMEIs and meter addresses in use */
  takenImeis: Map<string, 'collector' | 'meter'>;
  takenAddresses: Set<string>;
}

export interface Checked<T> {
  issues: Issue[];
  /** the rows that passed, ready to write (only written when there are no issues at all) */
  rows: (T & { row: number })[];
}

/** area paths (阳光园区/1号楼/1层) → area, and back */
export function areaPaths(areas: AreaRef[]) {
  const byId = new Map(areas.map((a) => [a.id, a]));
  const paths = new Map<string, AreaRef>();
  const pathOf = new Map<number, string>();
  for (const a of areas) {
    const names: string[] = [];
    for (let x: AreaRef | undefined = a, n = 0; x && n < 20; x = x.parentId == null ? undefined : byId.get(x.parentId), n += 1) names.unshift(x.name);
    const p = names.join('/');
    paths.set(p, a);
    pathOf.set(a.id, p);
  }
  return { paths, pathOf };
}

/**
 * Stands in for a reference that did not resolve (already reported on its column), so the form's
 * other rules still run on the row and every problem of the row is listed at once.
 */
const UNRESOLVED = Number.MAX_SAFE_INTEGER;

const normPath = (p: string) => p.split('/').map((s) => s.trim()).filter(Boolean).join('/');

/** The area at this path if the caller may use it. */
function usableArea(refs: Refs, paths: Map<string, AreaRef>, path: string) {
  const a = path ? paths.get(path) : undefined;
  return a && (refs.visibleAreaIds == null || refs.visibleAreaIds.has(a.id)) ? a : undefined;
}

function roomPaths(refs: Refs) {
  const { pathOf } = areaPaths(refs.areas);
  const m = new Map<string, RoomRef & { path: string }>();
  for (const r of refs.rooms) {
    const ap = pathOf.get(r.areaId);
    if (ap) m.set(`${ap}/${r.name}`, { ...r, path: `${ap}/${r.name}` });
  }
  return m;
}

/** The create form's schema, built once per resource (not once per row). */
const forms = new WeakMap<ResourceDef, ReturnType<typeof formSchema>>();
function formOf(resource: ResourceDef) {
  let f = forms.get(resource);
  if (!f) forms.set(resource, (f = formSchema(resource)));
  return f;
}

/** A row's cells turned into a form's input: enum labels into their values, blanks left out. */
class RowCheck {
  readonly issues: Issue[] = [];
  readonly input: Record<string, unknown> = {};
  constructor(
    readonly kind: ImportKind,
    readonly row: SheetRow,
  ) {
    for (const c of COLUMNS[kind]) {
      const v = row.values[c.header] ?? '';
      if (v === '') continue;
      if (!c.options) {
        this.input[c.key] = v;
        continue;
      }
      const hit = Object.entries(c.options).find(([value, label]) => label === v || value === v);
      if (hit) this.input[c.key] = hit[0];
      else this.fail(c.header, `「${v}」不是有效的${c.header}，应为：${Object.values(c.options).join('、')}`);
    }
  }
  cell(header: string) {
    return this.row.values[header] ?? '';
  }
  fail(column: string, message: string) {
    this.issues.push({ row: this.row.row, column, message });
  }
  /** the form's schema over the input (plus resolved references); its messages name the column */
  parse<T>(resource: ResourceDef, extra: Record<string, unknown> = {}): T | undefined {
    const r = formOf(resource).safeParse({ ...this.input, ...extra });
    if (r.success) return r.data as T;
    const seen = new Set<string>();
    for (const i of r.error.issues) {
      const key = String(i.path[0] ?? '');
      const column = headerOf(this.kind, key);
      // a reference that did not resolve has been reported already
      if (seen.has(column) || this.issues.some((x) => x.column === column)) continue;
      seen.add(column);
      this.fail(column, i.message);
    }
    return undefined;
  }
  get ok() {
    return this.issues.length === 0;
  }
}

/** Reports a natural key met twice in the file (the second and later rows name the first). */
class Uniq {
  private readonly first = new Map<string, number>();
  check(rc: RowCheck, key: string, column: string, what: string) {
    const at = this.first.get(key);
    if (at != null) rc.fail(column, `与第 ${at} 行重复：${what}`);
    else this.first.set(key, rc.row.row);
    return at == null;
  }
}

/** Checks each row with `check` (its plan, or undefined when it has none); a row's plan counts when the row has no issue. */
function checkEach<T>(kind: ImportKind, rows: SheetRow[], check: (rc: RowCheck) => T | undefined): Checked<T> {
  const checks: RowCheck[] = [];
  const out: (T & { row: number })[] = [];
  for (const r of rows) {
    const rc = new RowCheck(kind, r);
    checks.push(rc);
    const plan = check(rc);
    if (plan && rc.ok) out.push({ ...plan, row: r.row });
  }
  return { issues: checks.flatMap((c) => c.issues), rows: out };
}

/** The usable area a row names in `column` (a failure when it names one that is not): its path, and the id to send. */
function areaCell(rc: RowCheck, refs: Refs, paths: Map<string, AreaRef>, column: string) {
  const areaPath = normPath(rc.cell(column));
  const area = usableArea(refs, paths, areaPath);
  if (areaPath && !area) rc.fail(column, `区域「${areaPath}」不存在或无权使用`);
  return { areaPath, areaId: area?.id ?? (areaPath ? UNRESOLVED : '') };
}

/** The visible room a row names in `column` (a failure when it names one that is not). */
function roomCell<R>(rc: RowCheck, rooms: Map<string, R>, column: string) {
  const roomPath = normPath(rc.cell(column));
  const room = roomPath ? rooms.get(roomPath) : undefined;
  if (roomPath && !room) rc.fail(column, `房间「${roomPath}」不存在或无权使用`);
  return { roomPath, room };
}

// ---- areas ----------------------------------------------------------------------------------------

type AreaForm = { name: string; areaType: number; province: string; city: string; district: string; town: string; sort: number };
export type AreaPlan = AreaForm & { parentPath: string; path: string; depth: number };

export function checkAreas(rows: SheetRow[], refs: Refs): Checked<AreaPlan> {
  const { paths } = areaPaths(refs.areas);
  const filePaths = new Set<string>();
  for (const r of rows) {
    const name = (r.values['区域名称'] ?? '').trim();
    const parent = normPath(r.values['上级区域'] ?? '');
    if (name) filePaths.add(parent ? `${parent}/${name}` : name);
  }
  const uniq = new Uniq();
  const checked = checkEach<AreaPlan>('area', rows, (rc) => {
    const parentPath = normPath(rc.cell('上级区域'));
    const form = rc.parse<AreaForm & { parentId: unknown }>(areaResource);
    if (!form) return undefined;
    if (form.name.includes('/')) {
      rc.fail('区域名称', '区域名称不能含有「/」（路径分隔符）');
      return undefined;
    }
    const levels = [form.province, form.city, form.district, form.town];
    const gap = levels.findIndex((v, i) => !v && levels.slice(i + 1).some(Boolean));
    if (gap >= 0) rc.fail(['省', '市', '区/县', '乡镇/街道'][gap], '请按省、市、区/县、乡镇/街道的顺序填写地址');
    const path = parentPath ? `${parentPath}/${form.name}` : form.name;
    const depth = path.split('/').length - 1;
    if (!parentPath && refs.restricted) rc.fail('上级区域', '您的账号只能在已授权的区域下新建区域，请填写上级区域');
    if (parentPath && !usableArea(refs, paths, parentPath) && !filePaths.has(parentPath)) rc.fail('上级区域', `上级区域「${parentPath}」不存在或无权使用（本文件中也没有）`);
    const parent = paths.get(parentPath);
    if ((parent ? parent.deep + 1 : depth) > AREA_MAX_DEEP) rc.fail('上级区域', `区域最多 ${AREA_MAX_DEEP + 1} 级`);
    if (paths.has(path)) rc.fail('区域名称', `区域「${path}」已存在`);
    uniq.check(rc, path, '区域名称', `区域「${path}」`);
    return { ...form, parentPath, path, depth };
  });
  // parents first
  checked.rows.sort((a, b) => a.depth - b.depth || a.row - b.row);
  return checked;
}

// ---- rooms ----------------------------------------------------------------------------------------

export type RoomPlan = {
  name: string; areaId: number; decoration: number; orientation: number; chargingTypeId: number | null; sizeM2: string; status: number; memo: string;
};

export function checkRooms(rows: SheetRow[], refs: Refs): Checked<RoomPlan> {
  const { paths } = areaPaths(refs.areas);
  const existing = roomPaths(refs);
  const types = new Map(refs.chargingTypes.map((t) => [t.name, t]));
  const uniq = new Uniq();
  return checkEach<RoomPlan>('room', rows, (rc) => {
    const { areaPath, areaId } = areaCell(rc, refs, paths, '所属区域');
    const typeName = rc.cell('收费类型');
    const type = typeName ? types.get(typeName) : undefined;
    if (typeName && !type) rc.fail('收费类型', `收费类型「${typeName}」不存在`);
    else if (type && type.status !== 1) rc.fail('收费类型', `收费类型「${typeName}」已停用`);
    const form = rc.parse<RoomPlan>(roomResource, { areaId, chargingTypeId: type?.id });
    if (!form) return undefined;
    const full = `${areaPath}/${form.name}`;
    if (existing.has(full)) rc.fail('房间名称', `区域「${areaPath}」下已有房间「${form.name}」`);
    uniq.check(rc, full, '房间名称', `房间「${full}」`);
    return { ...form, sizeM2: form.sizeM2 ?? '', chargingTypeId: form.chargingTypeId ?? null };
  });
}

// ---- owners ---------------------------------------------------------------------------------------

export type OwnerPlan = {
  name: string; phone: string; idNumber: string; gender: number; email: string; memo: string;
  room: { id: number; areaId: number; path: string } | null;
};

export function checkOwners(rows: SheetRow[], refs: Refs): Checked<OwnerPlan> {
  const rooms = roomPaths(refs);
  const phones = new Map(refs.owners.map((o) => [o.phone, o]));
  const byPhone = new Uniq();
  const byRoom = new Uniq();
  return checkEach<OwnerPlan>('owner', rows, (rc) => {
    const { roomPath, room } = roomCell(rc, rooms, '入住房间');
    if (room && room.status !== 1) rc.fail('入住房间', `房间「${roomPath}」已停用，不能办理入住`);
    else if (room?.ownerId != null) rc.fail('入住房间', `房间「${roomPath}」已有在住业主「${room.ownerName}」，一个房间只能有一位在住业主`);
    if (room) byRoom.check(rc, roomPath, '入住房间', `房间「${roomPath}」只能有一位在住业主`);
    const form = rc.parse<Omit<OwnerPlan, 'room'>>(ownerResource, { roomId: room?.id });
    if (!form) return undefined;
    const known = phones.get(form.phone);
    if (known) rc.fail('手机号码', `手机号码 ${form.phone} 已登记为业主「${known.name}」`);
    byPhone.check(rc, form.phone, '手机号码', `手机号码 ${form.phone}`);
    return { ...form, room: room ? { id: room.id, areaId: room.areaId, path: room.path } : null };
  });
}

// ---- collectors -----------------------------------------------------------------------------------

export type CollectorPlan = { name: string; imei: string; plan: number; areaId: number; simNo: string; installAddress: string; memo: string };

const imeiTaken = (holder: 'collector' | 'meter' | undefined, imei: string) => holder && `IMEI「${imei}」已被${holder === 'collector' ? '其他采集器' : '其他表具'}使用`;

export function checkCollectors(rows: SheetRow[], refs: Refs): Checked<CollectorPlan> {
  const { paths } = areaPaths(refs.areas);
  const uniq = new Uniq();
  return checkEach<CollectorPlan>('collector', rows, (rc) => {
    const { areaId } = areaCell(rc, refs, paths, '安装区域');
    const form = rc.parse<CollectorPlan>(collectorResource, { areaId });
    if (!form) return undefined;
    const refusal = refs.plans && collectorPlanRefusal(refs.plans, form.plan);
    if (refusal) rc.fail('采集器方案', refusal);
    const taken = imeiTaken(refs.takenImeis.get(form.imei), form.imei);
    if (taken) rc.fail('IMEI', taken);
    uniq.check(rc, form.imei, 'IMEI', `IMEI「${form.imei}」`);
    return { ...form };
  });
}

// ---- meters ---------------------------------------------------------------------------------------

export type MeterPlan = {
  name: string; kind: number; plan: number; address: string; roomId: number; collectorId: number | null; imei: string;
  protocolId: number | null; baudId: number | null; phaseId: number | null; gatewayId: number | null; portId: number | null;
  brandId: number | null; caliberId: number | null; typeId: number | null; multiplier: string; initialReading: string;
  chargingSchemeId: number | null; alarmSchemeId: number | null; installDate: string | null; reportInterval: number; status: number; memo: string;
};

const LOOKUPS: LookupKind[] = ['protocol', 'baud', 'phase', 'gateway', 'port', 'brand', 'caliber', 'type'];

export function checkMeters(rows: SheetRow[], refs: Refs): Checked<MeterPlan> {
  const rooms = roomPaths(refs);
  const collectors = new Map(refs.collectors.map((c) => [c.imei, c]));
  const lookups = new Map(refs.lookups.map((l) => [`${l.kind}\u0001${l.name}`, l]));
  const byAddress = new Uniq();
  const byImei = new Uniq();
  return checkEach<MeterPlan>('meter', rows, (rc) => {
    const extra: Record<string, unknown> = {};
    const { roomPath, room } = roomCell(rc, rooms, '房间');
    extra.roomId = room?.id ?? (roomPath ? UNRESOLVED : '');
    const cImei = rc.cell('采集器 IMEI');
    const collector = cImei ? collectors.get(cImei) : undefined;
    if (cImei && !collector) rc.fail('采集器 IMEI', `本单位没有 IMEI 为「${cImei}」的采集器`);
    extra.collectorId = collector?.id;
    let protocolCode: string | undefined;
    for (const k of LOOKUPS) {
      const name = rc.cell(LOOKUP_KINDS[k]);
      if (!name) continue;
      const l = lookups.get(`${k}\u0001${name}`);
      if (!l) rc.fail(LOOKUP_KINDS[k], `${LOOKUP_KINDS[k]}「${name}」不存在`);
      extra[`${k}Id`] = l?.id;
      if (k === 'protocol') protocolCode = l?.code;
    }
    // the plan may be written as its label 「NB-IoT（3）」: the code is the number in brackets
    const planText = rc.cell('表具方案');
    const bracket = /[（(](\d+)[）)]\s*$/.exec(planText);
    if (bracket) extra.plan = bracket[1];
    const form = rc.parse<MeterPlan>(meterResource, extra);
    if (!form) return undefined;
    const kindName = METER_KINDS[form.kind];
    const planRefusal = meterPlanInvalid(form.kind, form.plan) ?? (refs.plans && meterPlanRefusal(refs.plans, form.kind, form.plan));
    if (planRefusal) rc.fail('表具方案', planRefusal);
    const digits = addressDigits(form.kind, protocolCode);
    if (form.address.length !== digits) rc.fail('表地址', `${kindName}地址须为 ${digits} 位数字（${digits === 12 ? 'DL/T 645' : 'CJ/T 188'}）`);
    if (refs.takenAddresses.has(form.address)) rc.fail('表地址', `表地址「${form.address}」已存在`);
    byAddress.check(rc, form.address, '表地址', `表地址「${form.address}」`);
    if (form.imei) {
      const taken = imeiTaken(refs.takenImeis.get(form.imei), form.imei);
      if (taken) rc.fail('表具 IMEI', taken);
      byImei.check(rc, form.imei, '表具 IMEI', `IMEI「${form.imei}」`);
    }
    for (const [col, list, key] of [['收费方案', refs.chargingSchemes, 'chargingSchemeId'], ['报警方案', refs.alarmSchemes, 'alarmSchemeId']] as const) {
      const name = rc.cell(col);
      if (!name) continue;
      const s = list.find((x) => x.name === name);
      if (!s) rc.fail(col, `本单位没有名为「${name}」的${col}`);
      else if (s.kind !== form.kind) rc.fail(col, `${col}「${name}」不是${kindName}方案`);
      else form[key] = s.id;
    }
    return { ...form, installDate: form.installDate ?? '' };
  });
}

// ---- opening balances -----------------------------------------------------------------------------

export type OpeningPlan = { ownerId: number; ownerName: string; roomId: number | null; wallet: string; amountFen: number; memo: string };

const moneySchema = fieldSchema({ key: 'amount', label: '期初余额', type: 'money' });
const memoSchema = fieldSchema({ key: 'memo', label: '备注', type: 'textarea', max: 200 });

export function checkOpenings(rows: SheetRow[], refs: Refs): Checked<OpeningPlan> {
  const rooms = roomPaths(refs);
  const phones = new Map(refs.owners.map((o) => [o.phone, o]));
  const uniq = new Uniq();
  return checkEach<OpeningPlan>('opening', rows, (rc) => {
    const phone = rc.cell('业主手机号码');
    const owner = phone ? phones.get(phone) : undefined;
    if (!phone) rc.fail('业主手机号码', '请填写业主手机号码');
    else if (!owner) rc.fail('业主手机号码', `本单位没有手机号码为 ${phone} 的业主`);
    const name = rc.cell('业主姓名');
    if (owner && name && name !== owner.name) rc.fail('业主姓名', `手机号码 ${phone} 的业主是「${owner.name}」，与「${name}」不符`);
    if (owner && owner.status === 2) rc.fail('业主手机号码', `业主「${owner.name}」已销户`);
    const { roomPath, room } = roomCell(rc, rooms, '房间');
    if (room && owner && (owner.status !== 1 || owner.roomId !== room.id)) rc.fail('房间', `业主「${owner.name}」当前没有入住房间「${roomPath}」`);
    const wallet = rc.input.wallet as string | undefined;
    if (!wallet && !rc.issues.some((i) => i.column === '钱包')) rc.fail('钱包', `请填写钱包：${Object.values(WALLET_OPTIONS).join('、')}`);
    const amountText = rc.cell('期初余额（元）');
    let amountFen = 0;
    const money = moneySchema.safeParse(amountText);
    if (!amountText) rc.fail('期初余额（元）', '请填写期初余额');
    else if (!money.success) rc.fail('期初余额（元）', money.error.issues[0]?.message ?? '期初余额格式不正确');
    else if ((amountFen = yuanToFen(money.data as string)) === 0) rc.fail('期初余额（元）', '期初余额不能为 0');
    const memo = memoSchema.safeParse(rc.cell('备注'));
    if (!memo.success) rc.fail('备注', memo.error.issues[0]?.message ?? '备注格式不正确');
    if (owner && wallet) {
      const j = refs.journal.get(owner.id);
      const label = WALLET_OPTIONS[wallet];
      if (j && j.others > 0) rc.fail('业主手机号码', `业主「${owner.name}」已有充值、扣费等账务记录，不能再导入期初余额`);
      else if (j?.openings.includes(wallet)) rc.fail('钱包', `业主「${owner.name}」的${label}钱包已有期初余额`);
      uniq.check(rc, `${owner.id}\u0001${wallet}`, '钱包', `业主「${owner.name}」的${label}钱包`);
    }
    if (!owner || !wallet) return undefined;
    const roomId = owner.status === 1 ? owner.roomId : null;
    return { ownerId: owner.id, ownerName: owner.name, roomId, wallet, amountFen, memo: (memo.data as string) || '期初余额导入' };
  });
}
