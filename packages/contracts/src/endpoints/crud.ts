import { z } from 'zod';
import { crudEndpoints } from '../crud.ts';
import {
  alarmSchemeResource, CHARGING_SCHEME_OP, ChargingSchemeBody, ChargingSchemeUpdateBody, chargeCodeResource, chargingSchemeResource,
} from '../resources/scheme.ts';
import { ChargingSchemeDetailRow, ChargingSchemeListRow, SCHEME_PATH, schemeEndpoints, schemeRead, schemeTags, schemeWrite } from './scheme.ts';
import { appealTypeResource, noticeTypeResource, workOrderTypeResource } from '../resources/content.ts';
import { areaPermissionResource, areaResource } from '../resources/area.ts';
import { chargingTypeResource, roomResource } from '../resources/room.ts';
import { RoomInfoRow, roomEndpoints, roomRead, roomTags, roomWrite } from './room.ts';
import { companyClassifyResource, companyResource } from '../resources/company.ts';
import { COMPANY_PATH, CompanyInfoRow, companyEndpoints, companyPlatform, companyTags } from './company.ts';
import { collectorResource, deviceLookupResource, focusResource, meterResource } from '../resources/device.ts';
import {
  CollectorInfoRow, FocusDetailRow, FocusInfoRow, MeterInfoRow, V1, collectorEndpoints, collectorOp, collectorRead, focusTags,
  gatherTags, meterEndpoints, meterOp, meterRead, meterTags,
} from './device.ts';
import { teachingVideoResource } from '../resources/help.ts';
import { SMS_UNKNOWN_VARIABLE, smsTemplateResource, unknownVariables } from '../resources/sms.ts';
import { AreaRow, areaEndpoints, areaPage, areaTags, ChildAreaQuery } from './area.ts';
import { ownerResource } from '../resources/owner.ts';
import { OwnerInfoRow, ownerEndpoints, OwnerListQuery, ownerPaths, ownerRead, ownerTags, ownerWrite } from './owner.ts';
import { payAppResource } from '../resources/payapp.ts';
import {
  PAY_APP_PATH, PayAppAddForm, PayAppListQuery, PayAppRow, payAppIdNoRule, payAppManage, payAppRead, payAppTags, payappEndpoints,
} from './payapp.ts';

// The declared CRUD resources' endpoints, one registry entry each: paths (SPEC §7), who may read and write.
// Each gives five declarations (list, detail, create, update, remove; packages/contracts/src/crud.ts);
// the server registers them with registerCrud, the web renders them with CrudPage.

/** the type dictionaries are read by whoever uses the appeal/notice pages, written by whoever holds 类型设置 */
const contentRead = { routes: ['addedAppeal', 'systemAppeal', 'addedNotice', 'systemNotice'] };
const contentWrite = { op: 'content.types', access: 1 as const };
const content = { read: contentRead, write: contentWrite, tags: ['增值服务'] };
const feesRead = { routes: ['systemFees'] };
const C = SCHEME_PATH;
const Y = '/yewu/api';

/** a device resource's paths: `${V1}/<seg>/list`, the rest at `${V1}/<seg>` */
const devicePaths = (seg: string) => {
  const one = `${V1}/${seg}`;
  return { list: `${one}/list`, detail: one, create: one, update: one, remove: one };
};

/**
 * API group name → the resource's five endpoints (`API.noticeType.list`, web `E.noticeType.list`); a
 * resource with actions of its own (trees, 开户, device operations) carries them in the same group.
 */
export const crudApi = {
  // the area archive (/recordsArea): the list is the tree-ordered read model below the picked area, a
  // delete's id travels in the path, a create answers the new level too; trees and bindings alongside
  area: {
    ...crudEndpoints(areaResource, {
      paths: { list: `${Y}/Area/GetAllChildArea`, detail: `${Y}/Area/Detail/:id`, create: `${Y}/Area/Detail`, update: `${Y}/Area/Detail`, remove: `${Y}/Area/Detail/:id` },
      read: areaPage, write: areaPage, tags: areaTags,
      schemas: { listQuery: ChildAreaQuery, row: AreaRow, created: { deep: z.number() } },
    }),
    ...areaEndpoints,
  },
  noticeType: crudEndpoints(noticeTypeResource, { ...content, paths: '/yewu/api/NoticeType' }),
  appealType: crudEndpoints(appealTypeResource, { ...content, paths: '/yewu/api/AppealType' }),
  workOrderType: crudEndpoints(workOrderTypeResource, { ...content, paths: '/yewu/api/WorkOrderType' }),
  // the room archive (/recordsRoom): rows carry the area path, owner and meter count; a delete's id in the path
  room: {
    ...crudEndpoints(roomResource, {
      paths: {
        list: `${Y}/RoomInfo/GetAllChildRoom`, detail: `${Y}/RoomInfo/Detail`, create: `${Y}/RoomInfo/Detail`, update: `${Y}/RoomInfo/Detail`,
        remove: `${Y}/RoomInfo/Detail/:id`,
      },
      read: roomRead, write: roomWrite, tags: roomTags, schemas: { row: RoomInfoRow },
    }),
    ...roomEndpoints,
  },
  // the owner archive (/recordsOwner): rows carry the room, area path and portal password state; a create
  // may move the owner in (roomId, create only); moving in/out, the password, history and export alongside
  owner: {
    ...crudEndpoints(ownerResource, {
      paths: ownerPaths, read: ownerRead, write: ownerWrite, tags: ownerTags, schemas: { listQuery: OwnerListQuery, row: OwnerInfoRow },
    }),
    ...ownerEndpoints,
  },
  areaPermission: crudEndpoints(areaPermissionResource, {
    paths: '/yewu/api/AreaPermission', tags: ['区域'],
    read: { routes: ['systemRecords', 'administrator', 'recordsArea'] }, write: { routes: ['systemRecords', 'recordsArea'] },
    extra: { areaNames: z.array(z.string()) },
  }),
  chargingType: crudEndpoints(chargingTypeResource, { paths: '/yewu/api/ChargingType', tags: ['收费类型'], read: feesRead, write: feesRead }),
  // the companies (/belongs, platform admins): rows name their codes and say whether a valve password is set;
  // the company's own info, valve password and device permissions alongside
  company: {
    ...crudEndpoints(companyResource, {
      paths: { list: `${COMPANY_PATH}/list`, detail: `${COMPANY_PATH}/detail/:id`, create: `${COMPANY_PATH}/detail`, update: `${COMPANY_PATH}/detail`, remove: `${COMPANY_PATH}/detail` },
      read: companyPlatform, write: companyPlatform, tags: companyTags, schemas: { row: CompanyInfoRow },
    }),
    ...companyEndpoints,
  },
  companyClassify: crudEndpoints(companyClassifyResource, { paths: '/yewu/api/CompanyClassify', tags: ['单位'], read: {}, write: companyPlatform }),
  // the device archives (/recordsCollect, /recordsTable): the list and detail at `${V1}/<seg>/list` and
  // `${V1}/<seg>`, the id as ?id=; rows carry the joined names and the gateway's state
  collector: {
    ...crudEndpoints(collectorResource, {
      paths: devicePaths('gather'), removeBy: 'query', tags: gatherTags, read: collectorRead,
      write: collectorOp('device.collectorAdd'),
      writes: { update: collectorOp('device.collectorEdit'), remove: collectorOp('device.collectorDelete') },
      schemas: { row: CollectorInfoRow },
    }),
    ...collectorEndpoints,
  },
  meter: {
    ...crudEndpoints(meterResource, {
      paths: devicePaths('device'), removeBy: 'query', tags: meterTags, read: meterRead,
      write: meterOp('device.add'), writes: { update: meterOp('device.edit'), remove: meterOp('device.delete') },
      schemas: { row: MeterInfoRow },
    }),
    ...meterEndpoints,
  },
  // anyone who may read meters keeps their own focus list; its detail answers the row without the area path
  focus: crudEndpoints(focusResource, {
    paths: devicePaths('focus'), removeBy: 'query', tags: focusTags, read: meterRead, write: meterRead,
    schemas: { row: FocusInfoRow, detail: FocusDetailRow }, summaries: { create: '关注表具', remove: '取消关注' },
  }),
  deviceLookup: crudEndpoints(deviceLookupResource, {
    paths: devicePaths('lookup'),
    removeBy: 'query', tags: ['设备字典'], read: {}, write: { access: 0 },
  }),
  // the charging schemes (/recordsFees): a body carries the scheme's price versions (checked and made
  // canonical by its schema), the detail answers them too, a list row the version in effect; in-use pickers alongside
  scheme: {
    ...crudEndpoints(chargingSchemeResource, {
      paths: { list: `${C}/list`, detail: `${C}/detail/:id`, create: `${C}/detail`, update: `${C}/detail`, remove: `${C}/detail` },
      read: schemeRead, write: schemeWrite, tags: schemeTags, summaries: { detail: '收费方案详情（含价格版本）' },
      schemas: { row: ChargingSchemeListRow, detail: ChargingSchemeDetailRow, create: ChargingSchemeBody, update: ChargingSchemeUpdateBody },
    }),
    ...schemeEndpoints,
  },
  chargeCode: crudEndpoints(chargeCodeResource, {
    paths: '/yewu/api/sys_companychargecode', tags: schemeTags,
    read: { routes: ['recordsFees', 'chargeCode', 'compre'] }, write: { routes: ['recordsFees', 'chargeCode'], op: CHARGING_SCHEME_OP },
  }),
  alarmScheme: crudEndpoints(alarmSchemeResource, {
    paths: {
      list: '/yewu/api/alarmscheme/list', detail: '/yewu/api/alarmscheme/detail/:id', create: '/yewu/api/alarmscheme/detail',
      update: '/yewu/api/alarmscheme/detail', remove: '/yewu/api/alarmscheme/detail',
    },
    tags: schemeTags, read: { routes: ['recordsPolice', 'recordsTable'] }, write: { routes: ['recordsPolice'] },
  }),
  // platform-wide message templates: written by platform admins, read by whoever binds them (/systemSend)
  smsTemplate: crudEndpoints(smsTemplateResource, {
    paths: '/yewu/api/alermSmsConfigTemplate', tags: ['短信'],
    read: { routes: ['alermSmsConfigTemplate', 'systemSend'] }, write: { routes: ['alermSmsConfigTemplate'], access: 0 },
    refine: (v, ctx) => {
      if (unknownVariables(String(v.content ?? '')).length) ctx.addIssue({ code: 'custom', path: ['content'], message: SMS_UNKNOWN_VARIABLE });
    },
  }),
  // the pay-application accounts (/huifu): list, add (answers the state it starts in) and Del (POST {id}); no
  // detail or edit — the settlement card, the state and withdrawals are the group's own endpoints
  payapp: {
    ...crudEndpoints(payAppResource, {
      paths: { list: `${PAY_APP_PATH}/GetAdaPayApplicationAllList`, create: `${PAY_APP_PATH}/AddAdaPayApplication`, remove: `${PAY_APP_PATH}/Del` },
      actions: ['list', 'create', 'remove'], removeBy: 'post', summaries: { list: '汇付账户列表（含可用余额）', create: '新增汇付账户申请' },
      read: payAppRead, write: payAppManage, tags: payAppTags, refine: payAppIdNoRule,
      schemas: { listQuery: PayAppListQuery, row: PayAppRow, body: PayAppAddForm, created: { status: z.string(), statusText: z.string() } },
    }),
    ...payappEndpoints,
  },
  // read by everyone signed in (the help page of every account), written on the platform's /teachingVideo
  teachingVideo: crudEndpoints(teachingVideoResource, {
    paths: '/yewu/api/Sys_TeachingVideo', tags: ['帮助'], read: {}, write: { access: 0, routes: ['teachingVideo'] },
  }),
};
