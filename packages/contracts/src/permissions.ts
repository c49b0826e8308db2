// The operation-permission tree of SPEC §3: three groups of operation keys. Roles hold a subset of
// these keys; the server refuses an operation whose key the user lacks.

export interface PermissionNode {
  key: string;
  title: string;
  children?: PermissionNode[];
}

/** A group's operations, key → title, in the order the role dialog lists them. */
const ops = (titles: Record<string, string>): PermissionNode[] => Object.entries(titles).map(([key, title]) => ({ key, title }));

export const PERMISSION_TREE: PermissionNode[] = [
  {
    key: 'device',
    title: '设备操作',
    children: ops({
      'device.readEnergy': '电量抄读',
      'device.readPower': '功率抄读',
      'device.constant': '常数设置',
      'device.load': '负载设置',
      'device.overVoltageCurrent': '过压过流设置',
      'device.powerFactor': '功率因数',
      'device.current': '电流设置',
      'device.peakValley': '峰谷设置',
      'device.dailyFreeze': '日冻结',
      'device.voltage': '电压设置',
      'device.readValve': '阀门读取',
      'device.overdraft': '透支下发与读取',
      'device.collectorAdd': '采集器新增',
      'device.collectorEdit': '采集器编辑',
      'device.collectorDelete': '采集器删除',
      'device.add': '设备新增',
      'device.edit': '设备编辑',
      'device.delete': '设备删除',
      'device.reset': '设备复位',
      'device.closeMeter': '销表',
      'device.valve': '阀门控制',
      'device.protect': '保电保水',
      'device.manualRead': '人工抄表',
      'device.timedValve': '定时阀控',
      'device.logExport': '日志导出',
    }),
  },
  {
    key: 'finance',
    title: '财务',
    children: ops({
      'finance.subsidy': '补贴',
      'finance.prepay': '预付费充值',
      'finance.refund': '退费',
      'finance.billPay': '账单缴费',
      'finance.settle': '结算',
      'finance.audit': '审核',
      'finance.receiptPrint': '票据打印',
      'finance.roomTimedSubsidy': '房间定时补贴',
      'finance.chargingScheme': '收费方案',
      'finance.logExport': '财务日志导出',
      'finance.withdraw': '商户提现',
      'finance.dailyClose': '日结交班',
      'finance.reverse': '作废冲正',
      'finance.reconcile': '支付平台对账',
    }),
  },
  {
    key: 'roomOwner',
    title: '房间与业主',
    children: ops({
      'room.basic': '房间基础信息',
      'room.closeAccount': '销户',
      'owner.basic': '业主基础信息',
      'owner.export': '业主导出',
    }),
  },
  {
    key: 'service',
    title: '增值服务',
    children: ops({
      'appeal.create': '登记诉求',
      'appeal.handle': '诉求受理与处理',
      'content.types': '公告/诉求/工单类型设置',
      'notice.publish': '物业公告编辑与发布',
    }),
  },
];

export const OPERATION_KEYS: string[] = PERMISSION_TREE.flatMap((g) => (g.children ?? []).map((c) => c.key));
export type OperationKey = (typeof OPERATION_KEYS)[number];
