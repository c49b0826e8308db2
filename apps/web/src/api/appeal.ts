// 增值服务 calls: the appeal flow (declared endpoints, `call(E.appeal.x)`) and the appeal types in use
// (the type dictionaries are declared CRUD resources, rendered by CrudPage).
import type { Appeal, AppealDetailData, AppealEvent } from '@meter/contracts';
import { call } from './endpoint.ts';
import { E } from './endpoints.gen.ts';
import type { Query } from './request.ts';

export type { Appeal, AppealDetailData, AppealEvent };

type PageQuery = Query & { index: number; size: number };
/** the company a platform admin works in (searchCompanyID); ignored for company staff */
type Company = string | undefined;
const inCompany = (company: Company) => (company ? { searchCompanyID: company } : {});

/** 业主诉求, 平台诉求, or 设备工单 (opened and closed by device exceptions, handled like an owner's appeal) */
export type AppealKind = 'owner' | 'system' | 'device';

export interface AppealForm {
  roomId?: number;
  ownerId?: number;
  typeId: number;
  title: string;
  content: string;
  contactName?: string;
  contactPhone?: string;
}

/** One kind of appeal: 业主诉求 and 设备工单 (/addedAppeal) or 平台诉求 (/systemAppeal). */
export function appealApi(kind: AppealKind) {
  const A = E.appeal;
  if (kind === 'device') {
    return {
      ...flowApi('owner'),
      list: (q: PageQuery) => call(A.workOrderList, { query: q as never }),
      detail: (id: number, company?: Company) => call(A.workOrderDetail, { query: { id, ...inCompany(company) } as never }),
      accept: (id: number, assigneeId?: number, content = '') => call(A.workOrderAccept, { body: { id, assigneeId, content } }),
      assign: (id: number, assigneeId: number) => call(A.workOrderAssign, { body: { id, assigneeId } }),
      reply: (id: number, content: string) => call(A.workOrderReply, { body: { id, content } }),
      complete: (id: number, content: string) => call(A.workOrderComplete, { body: { id, content } }),
      reject: (id: number, content: string) => call(A.workOrderReject, { body: { id, content } }),
    };
  }
  return flowApi(kind);
}

function flowApi(kind: 'owner' | 'system') {
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

/** An appeal type as the appeal form's picker shows it: 水电报修（4 小时）. */
export interface AppealTypeOption {
  id: number;
  name: string;
  limitHours: number;
}

/** The appeal types in use (the type pages themselves are CrudPage on E.appealType). */
export async function appealTypesInUse(company?: Company): Promise<AppealTypeOption[]> {
  const page = await call(E.appealType.list, { query: { index: 1, size: 1000, status: 1, ...inCompany(company) } });
  return page.data.map((r) => ({ id: r.id, name: String(r.name), limitHours: Number(r.limitHours) }));
}
