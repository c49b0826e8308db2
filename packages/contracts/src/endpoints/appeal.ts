import { z } from 'zod';
import { endpoint } from '../endpoint.ts';
import { IdQuery, optBeijingTime, optText, PageQuery, wireTime, wireTimeOrNull, ref, blankRef, coded } from '../query.ts';
import { num } from '../input.ts';

// 业主诉求 (/addedAppeal: an owner asks the company; staff register it on the owner's behalf until the
// owner app exists) and 平台诉求 (/systemAppeal: the company asks the platform). One work-order flow:
// 待受理 → 处理中 → 已完成 | 已驳回, due `limitHours` of its 诉求类型 after registration.

export const APPEAL_KIND = { owner: 1, system: 2, device: 3 } as const;
export const APPEAL_KINDS: Record<number, string> = { 1: '业主诉求', 2: '平台诉求', 3: '设备工单' };

/**
 * 设备工单 (kind 3): the device exceptions (device_warnings.kind) that open a work order by themselves —
 * one per device and exception, assigned by area, closed with a note when the exception clears — and
 * the 工单类型 names whose time limit they take when the company has one in use.
 */
export const DEVICE_ORDER_EXCEPTIONS: Record<string, { label: string; types: string[] }> = {
  offline: { label: '设备离线', types: ['设备离线', '采集器离线'] },
  backwards: { label: '读数倒走', types: ['读数异常'] },
  no_read: { label: '长时间无读数', types: ['抄表异常', '读数异常'] },
  read_fail: { label: '连续抄表失败', types: ['抄表异常', '读数异常'] },
  rate_error: { label: '倍率异常', types: ['倍率异常', '读数异常'] },
  valve_mismatch: { label: '阀门状态与指令不符', types: ['阀门异常'] },
  valve_fault: { label: '阀门故障', types: ['阀门异常'] },
};
export const APPEAL_STATUS = { pending: 0, processing: 1, done: 2, rejected: 3 } as const;
export const APPEAL_STATUSES: Record<number, string> = { 0: '待受理', 1: '处理中', 2: '已完成', 3: '已驳回' };
export const APPEAL_ACTIONS: Record<string, string> = {
  create: '登记', accept: '受理', assign: '指派', reply: '回复', complete: '办结', reject: '驳回',
};

/** Which states an action may start from (the server refuses the rest: no skipping states). */
export const APPEAL_FROM: Record<'accept' | 'assign' | 'reply' | 'complete' | 'reject', number[]> = {
  accept: [0],
  assign: [0, 1],
  reply: [0, 1],
  complete: [1],
  reject: [0, 1],
};

const id = num(z.number().int().positive());
const text = (label: string, max: number) =>
  z.string({ error: `请填写${label}` }).trim().min(1, `请填写${label}`).max(max, `${label}不能超过 ${max} 个字`);

export const AppealListQuery = PageQuery.extend({
  status: num(z.number().int().min(0).max(3)).optional(),
  typeId: id.optional(),
  /** title, content, contact or room contains (not `keyword`: ProTable keeps that name for itself) */
  q: optText(),
  /** only overdue orders (past the deadline, not finished) */
  overdue: z.enum(['true', 'false']).optional().transform((v) => (v === undefined ? undefined : v === 'true')),
  startTime: optBeijingTime(),
  endTime: optBeijingTime(),
  searchArea: id.optional(),
  searchCompanyID: id.optional(),
});

export const AppealRow = z.object({
  id: z.number(),
  ...ref('company'),
  kind: z.number(),
  ...blankRef('type'),
  title: z.string(),
  content: z.string(),
  ...coded('status', z.number()),
  ...blankRef('area'),
  ...blankRef('room'),
  ownerId: z.number().nullable(),
  contactName: z.string(),
  contactPhone: z.string(),
  ...blankRef('assignee'),
  deadlineAt: wireTime,
  overdue: z.boolean(),
  finishedAt: wireTimeOrNull,
  createdByName: z.string(),
  /** 设备工单: the device and the exception that opened it */
  meterId: z.number().nullable(),
  collectorId: z.number().nullable(),
  exceptionKind: z.string().nullable(),
  exceptionText: z.string(),
  /** photos an owner attached (private upload keys of the appeal's room) */
  photos: z.array(z.string()),
  createdAt: wireTime,
});

export const AppealEventRow = z.object({
  id: z.number(),
  ...coded('action', z.string()),
  fromStatus: z.number().nullable(),
  toStatus: z.number().nullable(),
  content: z.string(),
  byName: z.string(),
  /** 0 平台, 1 单位 */
  byAccess: z.number(),
  createdAt: wireTime,
});

export const AppealDetail = AppealRow.extend({ events: z.array(AppealEventRow) });

const phone = z.string().trim().max(20).regex(/^[0-9+\-() ]*$/, '联系电话只能包含数字、空格和 +-()').default('');

/** 登记业主诉求: the room (and so the area and owner) it concerns, its type, what is asked. */
export const OwnerAppealBody = z.object({
  roomId: id,
  ownerId: id.optional(),
  typeId: id,
  title: text('诉求标题', 100),
  content: text('诉求内容', 2000),
  contactName: z.string().trim().max(64).default(''),
  contactPhone: phone,
});

/** 提交平台诉求: the company's question or request to the platform. */
export const SystemAppealBody = z.object({
  typeId: id,
  title: text('诉求标题', 100),
  content: text('诉求内容', 2000),
  contactName: z.string().trim().max(64).default(''),
  contactPhone: phone,
});

export const AppealAcceptBody = z.object({ id, assigneeId: id.optional(), content: z.string().trim().max(2000).default('') });
export const AppealAssignBody = z.object({ id, assigneeId: id });
export const AppealReplyBody = z.object({ id, content: text('回复内容', 2000) });
export const AppealFinishBody = z.object({ id, content: text('处理说明', 2000) });
export const AppealRejectBody = z.object({ id, content: text('驳回原因', 2000) });

export const AssigneeRow = z.object({ id: z.number(), name: z.string() });

const tags = ['诉求'];
const ownerRead = { routes: ['addedAppeal'] };
const ownerHandle = { routes: ['addedAppeal'], op: 'appeal.handle' };
const sysRead = { routes: ['systemAppeal'] };
const platform = { routes: ['systemAppeal'], access: 0 as const };
const A = '/yewu/api/Appeal';
const S = '/yewu/api/SystemAppeal';
const W = '/yewu/api/WorkOrder';

export const appealEndpoints = {
  list: endpoint({ method: 'GET', path: `${A}/List`, summary: '业主诉求列表', perm: ownerRead, query: AppealListQuery, response: AppealRow, paged: true, tags }),
  detail: endpoint({ method: 'GET', path: `${A}/Detail`, summary: '业主诉求详情与处理记录', perm: ownerRead, query: IdQuery, response: AppealDetail, tags }),
  create: endpoint({
    method: 'POST', path: `${A}/Detail`, summary: '登记业主诉求', perm: { routes: ['addedAppeal'], op: 'appeal.create' }, body: OwnerAppealBody,
    response: z.object({ id: z.number() }), tags,
  }),
  accept: endpoint({ method: 'POST', path: `${A}/Accept`, summary: '受理业主诉求', perm: ownerHandle, body: AppealAcceptBody, tags }),
  assign: endpoint({ method: 'POST', path: `${A}/Assign`, summary: '指派业主诉求处理人', perm: ownerHandle, body: AppealAssignBody, tags }),
  reply: endpoint({ method: 'POST', path: `${A}/Reply`, summary: '回复业主诉求', perm: ownerHandle, body: AppealReplyBody, tags }),
  complete: endpoint({ method: 'POST', path: `${A}/Complete`, summary: '办结业主诉求', perm: ownerHandle, body: AppealFinishBody, tags }),
  reject: endpoint({ method: 'POST', path: `${A}/Reject`, summary: '驳回业主诉求', perm: ownerHandle, body: AppealRejectBody, tags }),
  assignees: endpoint({ method: 'GET', path: `${A}/Assignees`, summary: '可指派的处理人', perm: ownerRead, response: z.array(AssigneeRow), tags }),

  workOrderList: endpoint({ method: 'GET', path: `${W}/List`, summary: '设备工单列表（设备异常自动生成）', perm: ownerRead, query: AppealListQuery, response: AppealRow, paged: true, tags }),
  workOrderDetail: endpoint({ method: 'GET', path: `${W}/Detail`, summary: '设备工单详情与处理记录', perm: ownerRead, query: IdQuery, response: AppealDetail, tags }),
  workOrderAccept: endpoint({ method: 'POST', path: `${W}/Accept`, summary: '受理设备工单', perm: ownerHandle, body: AppealAcceptBody, tags }),
  workOrderAssign: endpoint({ method: 'POST', path: `${W}/Assign`, summary: '指派设备工单处理人', perm: ownerHandle, body: AppealAssignBody, tags }),
  workOrderReply: endpoint({ method: 'POST', path: `${W}/Reply`, summary: '回复设备工单', perm: ownerHandle, body: AppealReplyBody, tags }),
  workOrderComplete: endpoint({ method: 'POST', path: `${W}/Complete`, summary: '办结设备工单', perm: ownerHandle, body: AppealFinishBody, tags }),
  workOrderReject: endpoint({ method: 'POST', path: `${W}/Reject`, summary: '关闭设备工单（误报）', perm: ownerHandle, body: AppealRejectBody, tags }),

  systemList: endpoint({ method: 'GET', path: `${S}/List`, summary: '平台诉求列表', perm: sysRead, query: AppealListQuery, response: AppealRow, paged: true, tags }),
  systemDetail: endpoint({ method: 'GET', path: `${S}/Detail`, summary: '平台诉求详情与处理记录', perm: sysRead, query: IdQuery, response: AppealDetail, tags }),
  systemCreate: endpoint({
    method: 'POST', path: `${S}/Detail`, summary: '提交平台诉求', perm: { routes: ['systemAppeal'], op: 'appeal.create', access: 1 }, body: SystemAppealBody,
    response: z.object({ id: z.number() }), tags,
  }),
  systemAccept: endpoint({ method: 'POST', path: `${S}/Accept`, summary: '受理平台诉求', perm: platform, body: AppealAcceptBody.omit({ assigneeId: true }), tags }),
  systemReply: endpoint({ method: 'POST', path: `${S}/Reply`, summary: '回复平台诉求', perm: sysRead, body: AppealReplyBody, tags }),
  systemComplete: endpoint({ method: 'POST', path: `${S}/Complete`, summary: '办结平台诉求', perm: platform, body: AppealFinishBody, tags }),
  systemReject: endpoint({ method: 'POST', path: `${S}/Reject`, summary: '驳回平台诉求', perm: platform, body: AppealRejectBody, tags }),
};

export type Appeal = z.output<typeof AppealRow>;
export type AppealEvent = z.output<typeof AppealEventRow>;
export type AppealDetailData = z.output<typeof AppealDetail>;
