// 增值服务 calls: the appeal flow (declared endpoints, `call(E.appeal.x)`) and the notice/appeal/
// work-order type dictionaries (declared CRUD resources at SPEC §7's paths).
import type { Appeal, AppealDetailData, AppealEvent } from '@meter/contracts';
import { call } from './endpoint.ts';
import { E } from './endpoints.gen.ts';
import { http, request, type Query } from './request.ts';

export type { Appeal, AppealDetailData, AppealEvent };

type PageQuery = Query & { index: number; size: number };
/** the company a platform admin works in (searchCompanyID); ignored for company staff */
type Company = string | undefined;
const inCompany = (company: Company) => (company ? { searchCompanyID: company } : {});

export type AppealKind = 'owner' | 'system';

export interface AppealForm {
  roomId?: number;
  ownerId?: number;
  typeId: number;
  title: string;
  content: string;
  contactName?: string;
  contactPhone?: string;
}

/** One kind of appeal: 业主诉求 (/addedAppeal) or 平台诉求 (/systemAppeal). */
export function appealApi(kind: AppealKind) {
  const A = E.appeal;
  const owner = kind === 'owner';
  return {
    list: (q: PageQuery) => call(owner ? A.list : A.systemList, { query: q as never }),
    detail: (id: number, company?: Company) => call(owner ? A.detail : A.systemDetail, { query: { id, ...inCompany(company) } as never }),
    create: (body: AppealForm, company?: Company) =>
      owner
        ? call(A.create, { body: body as never, query: inCompany(company) as never })
        : call(A.systemCreate, { body: body as never, query: inCompany(company) as never }),
    accept: (id: number, assigneeId?: number, content = '') =>
      owner ? call(A.accept, { body: { id, assigneeId, content } }) : call(A.systemAccept, { body: { id, content } }),
    assign: (id: number, assigneeId: number) => call(A.assign, { body: { id, assigneeId } }),
    reply: (id: number, content: string) => call(owner ? A.reply : A.systemReply, { body: { id, content } }),
    complete: (id: number, content: string) => call(owner ? A.complete : A.systemComplete, { body: { id, content } }),
    reject: (id: number, content: string) => call(owner ? A.reject : A.systemReject, { body: { id, content } }),
    assignees: (company?: Company) => call(A.assignees, { query: inCompany(company) as never }),
  };
}

export interface ContentTypeRow {
  id: number;
  name: string;
  limitHours?: number;
  sort: number;
  status: number;
  memo: string;
  createdAt: string;
}

export type ContentTypeName = 'NoticeType' | 'AppealType' | 'WorkOrderType';

/** NoticeType / AppealType / WorkOrderType: List, Detail (GET, POST, PUT, DELETE). */
export function contentTypeApi(name: ContentTypeName) {
  const U = `/yewu/api/${name}`;
  return {
    list: (q: PageQuery) => http.page<ContentTypeRow>(`${U}/List`, q),
    /** the types in use, for pickers */
    using: async (company?: Company) => (await http.page<ContentTypeRow>(`${U}/List`, { index: 1, size: 1000, status: 1, ...inCompany(company) })).data,
    create: (body: Record<string, unknown>, company?: Company) => request<{ id: number }>('POST', `${U}/Detail`, { data: body, params: inCompany(company) }),
    update: (id: number, body: Record<string, unknown>, company?: Company) =>
      request<null>('PUT', `${U}/Detail`, { data: { ...body, id }, params: inCompany(company) }),
    remove: (ids: number[], company?: Company) => request<null>('DELETE', `${U}/Detail`, { data: { ids }, params: inCompany(company) }),
  };
}
