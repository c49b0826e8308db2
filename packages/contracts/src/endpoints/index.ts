import type { Endpoint } from '../endpoint.ts';
import { adminEndpoints } from './admin.ts';
import { authEndpoints } from './auth.ts';
import { notifyEndpoints } from './notify.ts';
import { reportEndpoints } from './report.ts';
import { systemEndpoints } from './system.ts';
import { financeEndpoints } from './finance.ts';
import { appealEndpoints } from './appeal.ts';
import { noticeEndpoints } from './notice.ts';
import { controlEndpoints } from './control.ts';
import { meteringEndpoints } from './metering.ts';
import { paymentEndpoints } from './payment.ts';
import { billingEndpoints } from './billing.ts';
import { crudApi } from './crud.ts';
import { importEndpoints } from './imports.ts';
import { bulkEndpoints, smsEndpoints } from './sms.ts';
import { deviceEndpoints } from './device.ts';
import { reconcileEndpoints } from './reconcile.ts';
import { screenEndpoints } from './screen.ts';
import { merchantEndpoints } from './merchant.ts';
import { agricultureBankEndpoints, bankEndpoints, companyBocInfoEndpoints, propertyInfoEndpoints } from './bank.ts';
import { fileEndpoints } from './files.ts';
import { settingsEndpoints } from './settings.ts';
import { ownerAppEndpoints } from './ownerapp.ts';

// Every declared endpoint, by domain. The server registers each (http/routes.ts `r.endpoint`), the web
// calls them (api/endpoint.ts), and endpoints.int.test.ts checks declarations ↔ registered routes.

export * from './admin.ts';
export * from './area.ts';
export * from './auth.ts';
export * from './notify.ts';
export * from './owner.ts';
export * from './report.ts';
export * from './scheme.ts';
export * from './system.ts';
export * from './finance.ts';
export * from './appeal.ts';
export * from './notice.ts';
export * from './control.ts';
export * from './metering.ts';
export * from './payment.ts';
export * from './payapp.ts';
export * from './billing.ts';
export * from './crud.ts';
export * from './imports.ts';
export * from './sms.ts';
export * from './company.ts';
export * from './room.ts';
export * from './device.ts';
export * from './reconcile.ts';
export * from './screen.ts';
export * from './merchant.ts';
export * from './bank.ts';
export * from './files.ts';
export * from './settings.ts';
export * from './ownerapp.ts';

export const API = {
  auth: authEndpoints,
  system: systemEndpoints,
  finance: financeEndpoints,
  admin: adminEndpoints,
  notify: notifyEndpoints,
  report: reportEndpoints,
  appeal: appealEndpoints,
  notice: noticeEndpoints,
  control: controlEndpoints,
  metering: meteringEndpoints,
  payment: paymentEndpoints,
  billing: billingEndpoints,
  // the declared CRUD resources (./crud.ts): list, detail, create, update, remove each
  ...crudApi,
  imports: importEndpoints,
  sms: smsEndpoints,
  bulk: bulkEndpoints,
  device: deviceEndpoints,
  reconcile: reconcileEndpoints,
  screen: screenEndpoints,
  merchant: merchantEndpoints,
  bank: bankEndpoints,
  propertyInfo: propertyInfoEndpoints,
  agricultureBank: agricultureBankEndpoints,
  companyBocInfo: companyBocInfoEndpoints,
  files: fileEndpoints,
  settings: settingsEndpoints,
  ownerApp: ownerAppEndpoints,
};

/** The flat list, for the declaration test and /docs. */
export const ENDPOINTS: Endpoint[] = Object.values(API).flatMap((group) => Object.values(group) as Endpoint[]);
