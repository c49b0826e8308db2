// Business calls (/yewu/api) of the room and owner archives: rooms (RoomInfo), charging types
// (ChargingType), owners (userinfo) with moving in/out, the move-in history and the owner export.
import { download, http, request, type Paged, type Query } from './request.ts';
import type { OwnerRow, RoomRow } from '@meter/contracts';

export type { OwnerRow, RoomRow };

const P = '/yewu/api';

type PageQuery = Query & { index: number; size: number };
type Body = Record<string, unknown>;
/** the company a platform admin works in (searchCompanyID); ignored for company staff */
type Company = string | undefined;

export interface EnumOption {
  value: number;
  label: string;
}


export interface ChargingTypeRow {
  id: number;
  name: string;
  chargeType: number;
  status: number;
  memo: string;
  createdAt: string;
}


export interface MoveRow {
  id: number;
  ownerId: number | null;
  ownerName: string;
  ownerPhone: string;
  roomId: number | null;
  roomName: string;
  areaId: number | null;
  action: number;
  at: string;
  operatorName: string;
  memo: string;
}

const withCompany = (company: Company) => ({ searchCompanyID: company });

export const roomApi = {
  list: (q: PageQuery) => http.page<RoomRow>(`${P}/RoomInfo/GetAllChildRoom`, q),
  /** rooms nobody lives in (to move an owner in) */
  vacant: (q: PageQuery) => http.page<RoomRow>(`${P}/getNoUserRoom`, q),
  get: (Id: number, company?: Company) => http.get<RoomRow>(`${P}/RoomInfo/Detail`, { Id, ...withCompany(company) }),
  create: (body: Body, company?: Company) => request<{ Id: number }>('POST', `${P}/RoomInfo/Detail`, { data: body, params: withCompany(company) }),
  update: (Id: number, body: Body, company?: Company) => request<null>('PUT', `${P}/RoomInfo/Detail`, { data: { ...body, Id }, params: withCompany(company) }),
  remove: (Id: number, company?: Company) => request<null>('DELETE', `${P}/RoomInfo/Detail/${Id}`, { params: withCompany(company) }),
  decorations: () => http.get<EnumOption[]>(`${P}/GetDecorationEnum`),
  orientations: () => http.get<EnumOption[]>(`${P}/GetOrientationEnum`),
};

export const chargingTypeApi = {
  list: (q: PageQuery) => http.page<ChargingTypeRow>(`${P}/ChargingType/List`, q),
  /** the charging types in use, for selects */
  using: (company?: Company) => http.get<{ id: number; name: string; chargeType: number }[]>(`${P}/ChargingType/GetAllUsingList_All`, withCompany(company)),
  chargeTypes: () => http.get<EnumOption[]>(`${P}/GetChargeTypeEnum`),
  get: (id: number, company?: Company) => http.get<ChargingTypeRow>(`${P}/ChargingType/Detail`, { id, ...withCompany(company) }),
  create: (body: Body, company?: Company) => request<{ id: number }>('POST', `${P}/ChargingType/Detail`, { data: body, params: withCompany(company) }),
  update: (id: number, body: Body, company?: Company) => request<null>('PUT', `${P}/ChargingType/Detail`, { data: { ...body, id }, params: withCompany(company) }),
  remove: (ids: number[], company?: Company) => request<null>('DELETE', `${P}/ChargingType/Detail`, { data: { ids }, params: withCompany(company) }),
};

const U = `${P}/userinfo`;

export const ownerApi = {
  list: (q: PageQuery) => http.page<OwnerRow>(`${U}/list`, q),
  get: (id: number, company?: Company) => http.get<OwnerRow>(`${U}/detail/${id}`, withCompany(company)),
  create: (body: Body, company?: Company) => request<{ id: number }>('POST', `${U}/detail`, { data: body, params: withCompany(company) }),
  update: (id: number, body: Body, company?: Company) => request<null>('PUT', `${U}/detail`, { data: { ...body, id }, params: withCompany(company) }),
  remove: (ids: number[], company?: Company) => request<null>('DELETE', `${U}/detail`, { data: { ids }, params: withCompany(company) }),
  /** a new owner-portal password, answered once */
  resetPwd: (id: number, company?: Company) => request<{ id: number; password: string }>('POST', `${U}/resetPwd`, { data: { id }, params: withCompany(company) }),
  moveIn: (id: number, roomId: number, memo: string, company?: Company) =>
    request<null>('POST', `${U}/moveIn`, { data: { id, roomId, memo }, params: withCompany(company) }),
  moveOut: (id: number, memo: string, company?: Company) => request<null>('POST', `${U}/moveOut`, { data: { id, memo }, params: withCompany(company) }),
  history: (q: PageQuery) => http.page<MoveRow>(`${U}/roomHistory`, q),
  /** 业主档案.xlsx with the list's filters (streamed by the server) */
  export: (filters: Query) => download(`${U}/export`, filters, '业主档案'),
};

export type { Paged };
