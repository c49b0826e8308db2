// The route registry of SPEC §2: every menu group and page, its Chinese title, whether the area tree
// shows beside it, and the access level it needs. Server (route permissions) and web (menu, tabs,
// breadcrumbs, guards) both derive from this one list.

export type AccessLevel = 0 | 1;
/** 0 = 平台管理员 (platform admin), 1 = 公司用户 (company staff). */
export const ACCESS = { platform: 0, company: 1 } as const;

export interface MenuGroup {
  key: string;
  title: string;
  icon: string;
}

export interface RouteDef {
  /** route key, also the URL path without the leading slash */
  key: string;
  title: string;
  group: string;
  /** the area tree shows beside this page (SPEC §2) */
  areaTree?: boolean;
  /** when set, the user's access level must equal it (SPEC §5) */
  access?: AccessLevel;
  /** not in the side menu; reachable from header shortcuts or links */
  hidden?: boolean;
}

export const MENU_GROUPS: MenuGroup[] = [
  { key: 'home', title: '首页', icon: 'HomeOutlined' },
  { key: 'fee', title: '费用管理', icon: 'MoneyCollectOutlined' },
  { key: 'control', title: '控制管理', icon: 'ControlOutlined' },
  { key: 'records', title: '档案管理', icon: 'FolderOpenOutlined' },
  { key: 'system', title: '系统管理', icon: 'SettingOutlined' },
  { key: 'notes', title: '记录查询', icon: 'FileSearchOutlined' },
  { key: 'report', title: '报表统计', icon: 'BarChartOutlined' },
  { key: 'added', title: '增值服务', icon: 'AppstoreAddOutlined' },
  { key: 'warn', title: '数据预警', icon: 'AlertOutlined' },
  { key: 'archive', title: '数据归档', icon: 'DatabaseOutlined' },
  { key: 'task', title: '任务管理', icon: 'ScheduleOutlined' },
  { key: 'platform', title: '平台管理', icon: 'ClusterOutlined' },
  { key: 'screen', title: '大屏可视化', icon: 'FundProjectionScreenOutlined' },
];

export const ROUTES: RouteDef[] = [
  { key: 'home', title: '首页', group: 'home', areaTree: true },

  { key: 'energy', title: '水电缴费', group: 'fee', areaTree: true },
  { key: 'compre', title: '综合缴费', group: 'fee', areaTree: true },
  { key: 'copyread', title: '抄表结算', group: 'fee', areaTree: true },
  { key: 'financerecode', title: '财务对账', group: 'fee', areaTree: true },
  { key: 'billprint', title: '票据打印', group: 'fee', areaTree: true },
  // not in SPEC §2: the finance day of issue 14 (日结/交班), under 费用管理
  { key: 'dailyClose', title: '日结交班', group: 'fee' },

  { key: 'casualCopy', title: '随机抄表', group: 'control', areaTree: true },
  { key: 'constant', title: '电表参数配置', group: 'control' },
  { key: 'advConfig', title: '高级参数配置', group: 'control' },
  { key: 'peopleCasualCopy', title: '人工抄表', group: 'control' },
  { key: 'longRange', title: '远程阀控', group: 'control', areaTree: true },
  { key: 'timeSubsidy', title: '房间定时补贴', group: 'control', areaTree: true },
  { key: 'timeChangeControl', title: '定时阀控', group: 'control', areaTree: true },
  { key: 'keepElectric', title: '保电管理', group: 'control', areaTree: true },
  { key: 'accountCancel', title: '销户销表', group: 'control', areaTree: true },
  { key: 'keepWater', title: '保水管理', group: 'control', areaTree: true },
  { key: 'accountOff', title: '已销户', group: 'control', areaTree: true },

  { key: 'recordsArea', title: '区域档案', group: 'records', areaTree: true },
  { key: 'recordsCollect', title: '采集器档案', group: 'records', areaTree: true },
  { key: 'recordsTable', title: '表具档案', group: 'records', areaTree: true },
  { key: 'recordsFees', title: '收费方案', group: 'records' },
  { key: 'recordsPolice', title: '报警方案', group: 'records' },
  { key: 'recordsRoom', title: '房间档案', group: 'records', areaTree: true },
  { key: 'recordsOwner', title: '业主档案', group: 'records', areaTree: true },

  { key: 'systemRole', title: '角色管理', group: 'system' },
  { key: 'systemRecords', title: '账号管理', group: 'system' },
  { key: 'systemFees', title: '收费类型', group: 'system' },
  { key: 'systemNotice', title: '系统公告', group: 'system' },
  { key: 'systemAppeal', title: '诉求类型', group: 'system', areaTree: true },
  { key: 'systemSend', title: '短信配置', group: 'system', areaTree: true },

  { key: 'noteBocLog', title: '银行验证日志', group: 'notes' },
  { key: 'notesPay', title: '缴费记录', group: 'notes' },
  { key: 'notesControl', title: '阀控记录', group: 'notes' },
  { key: 'notesCopy', title: '抄表记录', group: 'notes' },
  { key: 'rgNotesCopy', title: '人工抄表记录', group: 'notes' },
  { key: 'notesConfig', title: '水表配置记录', group: 'notes' },
  { key: 'notesMessage', title: '短信记录', group: 'notes' },
  { key: 'notesKeepElectric', title: '保电记录', group: 'notes' },
  { key: 'notesKeepWater', title: '保水记录', group: 'notes' },
  { key: 'notesElectricity', title: '通断记录', group: 'notes' },
  { key: 'notesOperate', title: '操作日志', group: 'notes' },
  { key: 'notesPower', title: '功率记录', group: 'notes' },
  { key: 'noteswithdraw', title: '提现记录', group: 'notes' },
  { key: 'inRoomRecord', title: '入住记录', group: 'notes' },

  { key: 'reportCheck', title: '对账报表', group: 'report', areaTree: true },
  { key: 'reportFees', title: '费用报表', group: 'report' },
  { key: 'reportDeduct', title: '扣费报表', group: 'report' },
  { key: 'reportBank', title: '银行报表', group: 'report' },

  { key: 'addedNotice', title: '物业公告', group: 'added' },
  { key: 'addedAppeal', title: '业主诉求', group: 'added' },

  { key: 'warnElectricOff', title: '电表断电预警', group: 'warn' },
  { key: 'warnWaterOff', title: '水表关阀预警', group: 'warn' },
  { key: 'warnElectricError', title: '电表异常预警', group: 'warn' },
  { key: 'warnWaterValveError', title: '水表阀门异常', group: 'warn' },
  { key: 'warnElectricRateError', title: '电表倍率异常', group: 'warn' },
  { key: 'warnCopyReadError', title: '抄表异常', group: 'warn' },
  { key: 'deviceNoRead', title: '设备未抄读', group: 'warn' },

  { key: 'copyLog', title: '抄表日志', group: 'archive', areaTree: true },
  { key: 'deviceReportLog', title: '设备上报日志', group: 'archive', areaTree: true },

  { key: 'task', title: '任务列表', group: 'task' },

  { key: 'administrator', title: '管理员', group: 'platform', access: 0 },
  { key: 'belongs', title: '单位管理', group: 'platform', access: 0 },
  { key: 'apply', title: '二级商户申请', group: 'platform', access: 0 },
  { key: 'huifu', title: '汇付用户申请', group: 'platform', access: 0 },
  { key: 'alermSmsConfigTemplate', title: '短信模板', group: 'platform', access: 0 },
  { key: 'bankManagement', title: '银行管理', group: 'platform', access: 0 },
  { key: 'teachingVideo', title: '教学视频', group: 'platform', access: 0 },

  { key: 'screen', title: '大屏可视化', group: 'screen' },

  // Pages under the shell that are not menu items (SPEC §2); their breadcrumb parent is 首页.
  { key: 'energyTotal', title: '综合费用', group: 'home', hidden: true, areaTree: true },
  { key: 'compreProperty', title: '综合缴费明细', group: 'home', hidden: true, areaTree: true },
  { key: 'comprePublic', title: '公摊电费缴费', group: 'home', hidden: true, areaTree: true },
  { key: 'gether', title: '区域信息', group: 'home', hidden: true, areaTree: true },
  { key: 'headQuestion', title: '帮助', group: 'home', hidden: true },
  { key: 'headSet', title: '设置', group: 'home', hidden: true },
  { key: 'headUser', title: '个人中心', group: 'home', hidden: true },
  { key: 'chargeCode', title: '收费码', group: 'home', hidden: true },
];

/** Routes every signed-in user may open, whatever their route list says (SPEC §5). */
export const ALWAYS_ALLOWED_ROUTES = [
  'home', 'energyTotal', 'compreProperty', 'comprePublic', 'gether', 'headQuestion', 'headSet', 'headUser',
];

export const ROUTE_BY_KEY: Record<string, RouteDef> = Object.fromEntries(ROUTES.map((r) => [r.key, r]));

/** Whether a user with this access level and route list may open the route (SPEC §5). */
export function routeAllowed(key: string, user: { access: number; routes: string[] }): boolean {
  const def = ROUTE_BY_KEY[key];
  if (!def) return false;
  if (def.access !== undefined && def.access !== user.access) return false;
  if (ALWAYS_ALLOWED_ROUTES.includes(key)) return true;
  return user.routes.includes(key);
}
