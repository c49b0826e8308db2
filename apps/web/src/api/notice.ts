// 公告 calls: 系统公告 (platform), the company users' inbox of them, and 物业公告 (company → owners).
import type { Notice, NoticeInput, SystemNotice, SystemNoticeInput } from '@meter/contracts';
import { call } from './endpoint.ts';
import { E } from './endpoints.gen.ts';
import type { Query } from './request.ts';

export type { Notice, SystemNotice };
export type NoticeKind = 'system' | 'company';

type PageQuery = Query & { index: number; size: number };
type Company = string | undefined;
const inCompany = (company: Company) => (company ? { searchCompanyID: company } : {});

export type NoticeForm = Partial<NoticeInput> & Partial<SystemNoticeInput> & { title: string; content: string };

/** The notices of one side: 系统公告 (/systemNotice, platform) or 物业公告 (/addedNotice). */
export function noticeApi(kind: NoticeKind) {
  const N = E.notice;
  if (kind === 'system') {
    return {
      list: (q: PageQuery) => call(N.systemList, { query: q as never }),
      create: (b: NoticeForm) => call(N.systemCreate, { body: b as never }),
      update: (id: number, b: NoticeForm) => call(N.systemUpdate, { body: { ...b, id } as never }),
      publish: async (id: number) => { await call(N.systemPublish, { body: { id } }); return { smsCount: 0 }; },
      withdraw: (id: number) => call(N.systemWithdraw, { body: { id } }),
      remove: (id: number) => call(N.systemRemove, { body: { id } }),
    };
  }
  return {
    list: (q: PageQuery) => call(N.list, { query: q as never }),
    create: (b: NoticeForm, company?: Company) => call(N.create, { body: b as never, query: inCompany(company) as never }),
    update: (id: number, b: NoticeForm, company?: Company) => call(N.update, { body: { ...b, id } as never, query: inCompany(company) as never }),
    publish: (id: number, company?: Company) => call(N.publish, { body: { id }, query: inCompany(company) as never }),
    withdraw: (id: number, company?: Company) => call(N.withdraw, { body: { id }, query: inCompany(company) as never }),
    remove: (id: number, company?: Company) => call(N.remove, { body: { id }, query: inCompany(company) as never }),
  };
}

/** A company user's 系统公告 and how many are unread. */
export const noticeInbox = () => call(E.notice.inbox);
/** Opens one (counts as read). */
export const readSystemNotice = (id: number) => call(E.notice.inboxRead, { body: { id } });

/** The company's 公告类型 in use, for the form's picker. */
export async function noticeTypesInUse(company?: Company) {
  const page = await call(E.noticeType.list, { query: { index: 1, size: 1000, status: 1, ...inCompany(company) } });
  return page.data.map((r) => ({ value: r.id, label: String(r.name) }));
}
