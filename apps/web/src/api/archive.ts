// Business calls (/yewu/api) of the room and owner archives: rooms (RoomInfo), charging types
// (ChargingType), owners (userinfo) with moving in/out, the move-in history and the owner export.
import type { Paged, Query } from './request.ts';
import type { ChargingTypeOption, EnumOption, OwnerListInput, OwnerMove, OwnerRow, RoomRow } from '@meter/contracts';
import { call, fetchFile } from './endpoint.ts';
import { E } from './endpoints.gen.ts';

export type { ChargingTypeOption, EnumOption, OwnerRow, RoomRow };

type PageQuery = Query & { index: number; size: number };
/** the company a platform admin works in (searchCompanyID); ignored for company staff */
type Company = string | undefined;

/** a move in or out (declared with its endpoint) */
export type MoveRow = OwnerMove;

const withCompany = (company: Company) => ({ searchCompanyID: company });

export const roomApi = {
  list: (q: PageQuery) => call(E.room.list, { query: q }),
  /** rooms nobody lives in (to move an owner in) */
  vacant: (q: PageQuery) => call(E.room.vacant, { query: q }),
  decorations: () => call(E.room.decorations),
  orientations: () => call(E.room.orientations),
};

/** the charging types in use, for selects (the 收费类型 page itself is a declared CrudPage) */
export const chargingTypeApi = {
  using: (company?: Company) => call(E.room.usingChargingTypes, { query: withCompany(company) }),
};


/** the owner archive's own calls (its create, edit and delete are the declared resource's: CrudPage) */
export const ownerApi = {
  list: (q: PageQuery) => call(E.owner.list, { query: q }),
  /** a new owner-portal password, answered once */
  resetPwd: (id: number, company?: Company) => call(E.owner.resetPwd, { body: { id }, query: withCompany(company) }),
  moveIn: (id: number, roomId: number, memo: string, company?: Company) =>
    call(E.owner.moveIn, { body: { id, roomId, memo }, query: withCompany(company) }),
  moveOut: (id: number, memo: string, company?: Company) => call(E.owner.moveOut, { body: { id, memo }, query: withCompany(company) }),
  history: (q: PageQuery) => call(E.owner.history, { query: q }),
  /** 业主档案.xlsx with the list's filters (streamed by the server) */
  export: (filters: Partial<OwnerListInput>) => fetchFile(E.owner.export, { query: filters }),
};

export type { Paged };
