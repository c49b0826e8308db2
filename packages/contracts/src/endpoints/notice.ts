import { z } from 'zod';
import { endpoint } from '../endpoint.ts';
import { num } from '../input.ts';
import { IdQuery, optBeijingTime, optText, PageQuery, wireTime, wireTimeOrNull, blankRef, coded } from '../query.ts';

// 系统公告 (/systemNotice: the platform to every company) and 物业公告 (/addedNotice: a company to its
// owners, all of them or those of the areas named). Both: 草稿 → 已发布 → 已撤回 (re-publishable), rich
// text (HTML the server sanitizes, images by URL or data: — the uploads module supplies URLs), read
// counts. A company notice may go out by SMS to the owners addressed when it is published.
// SPEC §7 names none of these paths (only NoticeType): they are ours, listed in docs/API.md.

export const NOTICE_STATUS = { draft: 0, published: 1, withdrawn: 2 } as const;
export const NOTICE_STATUSES: Record<number, string> = { 0: '草稿', 1: '已发布', 2: '已撤回' };
/** 系统公告的类别 (the platform has no NoticeType dictionary of its own) */
export const SYSTEM_NOTICE_CATEGORIES: Record<number, string> = { 1: '平台公告', 2: '维护通知', 3: '版本更新', 4: '政策通知' };

/** The longest notice body (HTML, images included as data: until uploads hold them). */
export const NOTICE_CONTENT_MAX = 400_000;

const id = num(z.number().int().positive());
const title = z.string({ error: '请填写公告标题' }).trim().min(1, '请填写公告标题').max(100, '公告标题不能超过 100 个字');
const content = z
  .string({ error: '请填写公告内容' })
  .max(NOTICE_CONTENT_MAX, '公告内容过长（图片请使用图片地址或上传，不要粘贴过大的图片）');

const NoticeSearch = PageQuery.extend({
  status: num(z.number().int().min(0).max(2)).optional(),
  /** title contains */
  q: optText(),
  startTime: optBeijingTime(),
  endTime: optBeijingTime(),
});
/** 物业公告 (company → owners) carry a notice type */
export const NoticeListQuery = NoticeSearch.extend({ typeId: id.optional() });
/** 系统公告 (platform → companies) carry a category, no notice type */
export const SystemNoticeListQuery = NoticeSearch.extend({ category: num(z.number().int().min(1).max(4)).optional() });

const base = {
  id: z.number(),
  title: z.string(),
  content: z.string(),
  ...coded('status', z.number()),
  pinned: z.boolean(),
  publishedAt: wireTimeOrNull,
  withdrawnAt: wireTimeOrNull,
  createdByName: z.string(),
  createdAt: wireTime,
  updatedAt: wireTime,
};

export const SystemNoticeRow = z.object({
  ...base,
  ...coded('category', z.number()),
  /** companies of which at least one user opened it */
  readCompanies: z.number(),
  /** companies it reaches (every company in use) */
  totalCompanies: z.number(),
});

/** A published system notice as a company user sees it. */
export const InboxRow = z.object({
  id: z.number(),
  title: z.string(),
  ...coded('category', z.number()),
  pinned: z.boolean(),
  publishedAt: wireTime,
  read: z.boolean(),
});
export const InboxAnswer = z.object({ unread: z.number(), rows: z.array(InboxRow) });
export const NoticeView = z.object({ id: z.number(), title: z.string(), content: z.string(), categoryText: z.string(), publishedAt: wireTimeOrNull });

export const SystemNoticeBody = z.object({
  category: num(z.number().int().min(1).max(4)).default(1),
  title,
  content,
  pinned: z.boolean().default(false),
});
export const SystemNoticeUpdateBody = SystemNoticeBody.extend({ id });

export const NoticeRow = z.object({
  ...base,
  companyId: z.number(),
  ...blankRef('type'),
  areaIds: z.array(z.number()),
  /** 全部业主 or the areas' names */
  areaNames: z.array(z.string()),
  sendSms: z.boolean(),
  /** SMS queued when it was published */
  smsCount: z.number(),
  /** owners who opened it */
  readCount: z.number(),
  /** owners it is addressed to (living in the areas now) */
  audience: z.number(),
});

export const NoticeBody = z.object({
  typeId: id.nullish(),
  title,
  content,
  /** empty = every owner of the company; otherwise the owners of these areas and their sub-areas */
  areaIds: z.array(id).max(200).default([]),
  pinned: z.boolean().default(false),
  /** publishing also sends an SMS (template 公告通知) to each owner addressed */
  sendSms: z.boolean().default(false),
});
export const NoticeUpdateBody = NoticeBody.extend({ id });

export const IdBody = z.object({ id });
export const PublishAnswer = z.object({ smsCount: z.number() });

/** 业主端 (the owner app's session): the notices addressed to the signed-in owner's rooms. */
export const OwnerNoticeQuery = PageQuery;
export const OwnerNoticeRow = z.object({
  id: z.number(),
  title: z.string(),
  typeName: z.string(),
  pinned: z.boolean(),
  publishedAt: wireTime,
  read: z.boolean(),
});
export const OwnerNoticeRead = z.object({ id });
export const OwnerNoticeView = OwnerNoticeRow.extend({ content: z.string() });

const tags = ['公告'];
const S = '/yewu/api/SystemNotice';
const N = '/yewu/api/Notice';
const platform = { routes: ['systemNotice'], access: 0 as const };
const read = { routes: ['addedNotice'] };
/** company users holding the 系统公告 page read them there (and see the header's unread badge) */
const inbox = { routes: ['systemNotice'] };
const write = { routes: ['addedNotice'], op: 'notice.publish' };
// the owner app's session (endpoints/ownerapp.ts): an owner reads the notices addressed to their rooms
const ownerSide = { owner: true as const };

export const noticeEndpoints = {
  systemList: endpoint({ method: 'GET', path: `${S}/List`, summary: '系统公告列表（平台）', perm: platform, query: SystemNoticeListQuery, response: SystemNoticeRow, paged: true, tags }),
  systemDetail: endpoint({ method: 'GET', path: `${S}/Detail`, summary: '系统公告详情（平台）', perm: platform, query: IdQuery, response: SystemNoticeRow, tags }),
  systemCreate: endpoint({ method: 'POST', path: `${S}/Detail`, summary: '新建系统公告（草稿）', perm: platform, body: SystemNoticeBody, response: z.object({ id: z.number() }), tags }),
  systemUpdate: endpoint({ method: 'PUT', path: `${S}/Detail`, summary: '修改系统公告', perm: platform, body: SystemNoticeUpdateBody, tags }),
  systemPublish: endpoint({ method: 'POST', path: `${S}/Publish`, summary: '发布系统公告', perm: platform, body: IdBody, tags }),
  systemWithdraw: endpoint({ method: 'POST', path: `${S}/Withdraw`, summary: '撤回系统公告', perm: platform, body: IdBody, tags }),
  systemRemove: endpoint({ method: 'POST', path: `${S}/Remove`, summary: '删除系统公告草稿', perm: platform, body: IdBody, tags }),
  inbox: endpoint({ method: 'GET', path: `${S}/Inbox`, summary: '本单位收到的系统公告与未读数', perm: inbox, response: InboxAnswer, tags }),
  inboxRead: endpoint({ method: 'POST', path: `${S}/Read`, summary: '阅读系统公告（记为已读）', perm: inbox, body: IdBody, response: NoticeView, tags }),

  list: endpoint({ method: 'GET', path: `${N}/List`, summary: '物业公告列表', perm: read, query: NoticeListQuery, response: NoticeRow, paged: true, tags }),
  detail: endpoint({ method: 'GET', path: `${N}/Detail`, summary: '物业公告详情', perm: read, query: IdQuery, response: NoticeRow, tags }),
  create: endpoint({ method: 'POST', path: `${N}/Detail`, summary: '新建物业公告（草稿）', perm: write, body: NoticeBody, response: z.object({ id: z.number() }), tags }),
  update: endpoint({ method: 'PUT', path: `${N}/Detail`, summary: '修改物业公告', perm: write, body: NoticeUpdateBody, tags }),
  publish: endpoint({ method: 'POST', path: `${N}/Publish`, summary: '发布物业公告（可同时短信通知业主）', perm: write, body: IdBody, response: PublishAnswer, tags }),
  withdraw: endpoint({ method: 'POST', path: `${N}/Withdraw`, summary: '撤回物业公告', perm: write, body: IdBody, tags }),
  remove: endpoint({ method: 'POST', path: `${N}/Remove`, summary: '删除物业公告草稿', perm: write, body: IdBody, tags }),

  ownerList: endpoint({ method: 'GET', path: '/yewu/api/OwnerNotice/List', summary: '业主端：业主收到的物业公告', perm: ownerSide, query: OwnerNoticeQuery, response: OwnerNoticeRow, paged: true, tags }),
  ownerRead: endpoint({ method: 'POST', path: '/yewu/api/OwnerNotice/Read', summary: '业主端：阅读物业公告（记为已读）', perm: ownerSide, body: OwnerNoticeRead, response: OwnerNoticeView, tags }),
};

export type SystemNotice = z.output<typeof SystemNoticeRow>;
export type Notice = z.output<typeof NoticeRow>;
export type NoticeInput = z.output<typeof NoticeBody>;
export type SystemNoticeInput = z.output<typeof SystemNoticeBody>;
