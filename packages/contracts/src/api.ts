// Shapes that cross the wire between server and web. Ids are JSON numbers (bigint columns read in
// number mode; ids stay far below 2^53).

export const SUCCESS = 'SUCCESS';

export interface Envelope<T> {
  code: string;
  message: string;
  data?: T;
  count?: number;
}

export interface SessionUser {
  id: number;
  username: string;
  realName: string;
  companyId: number | null;
  roleId: number | null;
  userType: number;
}

export interface SessionCompany {
  id: number;
  name: string;
  bankType: number;
  /** 0 智能水电表物联网管理平台, 1 智慧市场管理平台 (the branded edition) */
  edition: number;
}

export interface LoginResult {
  token: string;
  user: SessionUser;
  access: number;
  routes: string[];
  operations: string[];
  company: SessionCompany | null;
}

export const PRODUCT_VERSION = 'v1.9.2';
export const EDITION_TITLES: Record<number, string> = { 0: '智能水电表物联网管理平台', 1: '智慧市场管理平台' };
/**
 * The edition's name where the side menu has room (166 px; 50 px collapsed): the same platform as the
 * header's title, the whole of it when it fits.
 */
export const EDITION_SHORT_TITLES: Record<number, { full: string; collapsed: string }> = {
  0: { full: '水电表平台', collapsed: '水电' },
  1: { full: '智慧市场管理平台', collapsed: '市场' },
};
/** What the signed-in company is, by edition: a property company or a market (home: X名称). */
export const COMPANY_LABELS: Record<number, string> = { 0: '物业', 1: '市场' };
/** the building-unit label by edition (SPEC §1) */
export const UNIT_LABELS: Record<number, string> = { 0: '物业', 1: '出租屋' };
