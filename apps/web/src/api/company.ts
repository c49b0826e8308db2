// Company calls (/yewu/api): the platform's company list (/belongs), the caller's company, the
// receipt account, the valve-control password and the company's device-plan permissions.
import { http, request, type Paged, type Query } from './request.ts';

const P = '/yewu/api';

export interface SmsPrice {
  notifyType: number;
  name: string;
  priceFen: number;
  price: string;
}

export interface CompanyRow {
  id: number;
  name: string;
  classifyId: number | null;
  classifyName: string | null;
  contact: string;
  phone: string;
  address: string;
  bankType: number;
  bankName: string;
  edition: number;
  editionName: string;
  unitLabel: string;
  smsPriceFen: number;
  phonePriceFen: number;
  smsPrices: SmsPrice[];
  deviceCheck: boolean;
  hasValveControlPwd: boolean;
  collectorPlans: number[];
  electricPlans: number[];
  waterPlans: number[];
  createdAt: string;
}

export interface DevicePermiss {
  companyId: number;
  companyName: string;
  deviceCheck: boolean;
  collectorPlans: number[];
  electricPlans: number[];
  waterPlans: number[];
}

export interface ReceiptAccount {
  companyId: number;
  companyName: string;
  accountName: string;
  bankType: number;
  bankName: string;
  contact: string;
  phone: string;
  address: string;
}

type Body = Record<string, unknown>;

export const companyAdminApi = {
  /** company management is platform-wide: the header's company pick is not sent */
  list: ({ searchCompanyID: _c, searchArea: _a, areaName: _n, ...q }: Query & { index: number; size: number }) => {
    void _c; void _a; void _n;
    return http.page<CompanyRow>(`${P}/Company/list`, q as Query & { index: number; size: number });
  },
  get: (id: number) => http.get<CompanyRow>(`${P}/Company/detail/${id}`),
  create: (body: Body) => http.post<{ id: number }>(`${P}/Company/detail`, body),
  update: (id: number, body: Body) => http.put<null>(`${P}/Company/detail`, { ...body, id }),
  remove: (ids: number[]) => http.del<null>(`${P}/Company/detail`, { ids }),
  devicePermiss: (companyId: number) => http.get<DevicePermiss>(`${P}/CompanyDevicePermiss/detail`, { companyId }),
  saveDevicePermiss: (body: Omit<DevicePermiss, 'companyName'>) => http.post<null>(`${P}/CompanyDevicePermiss/detail`, body),
};

export const companySelfApi = {
  /** the caller's company (a platform admin: the picked one, else null) */
  info: (company?: string) => http.get<CompanyRow | null>(`${P}/Company/CompanyInfo`, { searchCompanyID: company }),
  receiptAccount: (company?: string) => http.get<ReceiptAccount>(`${P}/Company/GetReceiptAccount`, { searchCompanyID: company }),
  /** whether the company has a valve-control password (the password itself never leaves the server) */
  valveControlPwdSet: (company?: string) =>
    request<{ set: boolean }>('GET', `${P}/Company/getValveControlPwd`, { params: { searchCompanyID: company } }),
  /** a company admin sets the valve-control password (changing one that is set needs the current one) */
  setValveControlPwd: (password: string, currentPassword?: string, company?: string) =>
    request<null>('PUT', `${P}/Company/setValveControlPwd`, { data: { password, currentPassword }, params: { searchCompanyID: company } }),
};

export type { Paged };
