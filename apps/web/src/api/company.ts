// Company calls (/yewu/api): the platform's company list (/belongs), the caller's company, the
// receipt account, the valve-control password and the company's device-plan permissions.
// Declared in packages/contracts/src/endpoints/company.ts; rows typed by the declared answers.
import type { CompanyDevicePermiss, CompanyRow, DevicePermissInput, Merchant, MerchantInput, PayGear, ReceiptAccount, SmsPrice } from '@meter/contracts';
import { call } from './endpoint.ts';
import { E } from './endpoints.gen.ts';
import type { Paged, Query } from './request.ts';

export type { CompanyRow, Merchant, MerchantInput, PayGear, ReceiptAccount, SmsPrice };
/** a company's device-plan permissions as the dialog edits them */
export type DevicePermiss = CompanyDevicePermiss;


export const companyAdminApi = {
  /** company management is platform-wide: the header's company pick is not sent (/belongs' first list; its page is CrudPage's) */
  list: ({ searchCompanyID: _c, searchArea: _a, areaName: _n, ...q }: Query & { index: number; size: number }) => {
    void _c; void _a; void _n;
    return call(E.company.list, { query: q });
  },
  devicePermiss: (companyId: number) => call(E.company.devicePermiss, { query: { companyId } }),
  saveDevicePermiss: (body: DevicePermissInput) => call(E.company.saveDevicePermiss, { body }),
  /** 支付商户: secrets never come back (set / fingerprint only); a blank secret keeps the stored one */
  merchant: (companyId: number) => call(E.merchant.get, { query: { companyId } }),
  saveMerchant: (body: MerchantInput) => call(E.merchant.save, { body }),
  /** 充值档位 */
  payGear: (companyId: number) => call(E.merchant.payGear, { query: { companyId } }),
  savePayGear: (companyId: number, gears: string[]) => call(E.merchant.savePayGear, { body: { companyId, gears } }),
};

export const companySelfApi = {
  /** the caller's company (a platform admin: the picked one, else null) */
  info: (company?: string) => call(E.company.info, { query: { searchCompanyID: company } }),
  receiptAccount: (company?: string) => call(E.company.receiptAccount, { query: { searchCompanyID: company } }),
  /** whether the company has a valve-control password (the password itself never leaves the server) */
  valveControlPwdSet: (company?: string) => call(E.company.valvePwdStatus, { query: { searchCompanyID: company } }),
  /** a company admin sets the valve-control password (changing one that is set needs the current one) */
  setValveControlPwd: (password: string, currentPassword?: string, company?: string) =>
    call(E.company.setValvePwd, { body: { password, currentPassword }, query: { searchCompanyID: company } }),
};

export type { Paged };
