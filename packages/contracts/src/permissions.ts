// The operation-permission tree of SPEC §3: three groups of operation keys. Roles hold a subset of
// these keys; the server refuses an operation whose key the user lacks.

export interface PermissionNode {
  key: string;
  title: string;
  children?: PermissionNode[];
}

export const PERMISSION_TREE: PermissionNode[] = [
  {
    key: 'device',
    title: '设备操作',
    children: [
      { key: 'device.readEnergy', title: '电量抄读' },
      { key: 'device.readPower', title: '功率抄读' },
      { key: 'device.constant', title: '常数设置' },
      { key: 'device.load', title: '负载设置' },
      { key: 'device.overVoltageCurrent', title: '过压过流设置' },
      { key: 'device.powerFactor', title: '功率因数' },
      { key: 'device.current', title: '电流设置' },
      { key: 'device.peakValley', title: '峰谷设置' },
      { key: 'device.dailyFreeze', title: '日冻结' },
      { key: 'device.voltage', title: '电压设置' },
      { key: 'device.readValve', title: '阀门读取' },
      { key: 'device.overdraft', title: '透支下发与读取' },
      { key: 'device.collectorAdd', title: '采集器新增' },
      { key: 'device.collectorEdit', title: '采集器编辑' },
      { key: 'device.collectorDelete', title: '采集器删除' },
      { key: 'device.add', title: '设备新增' },
      { key: 'device.edit', title: '设备编辑' },
      { key: 'device.delete', title: '设备删除' },
      { key: 'device.reset', title: '设备复位' },
      { key: 'device.closeMeter', title: '销表' },
      { key: 'device.valve', title: '阀门控制' },
      { key: 'device.protect', title: '保电保水' },
      { key: 'device.manualRead', title: '人工抄表' },
      { key: 'device.timedValve', title: '定时阀控' },
      { key: 'device.logExport', title: '日志导出' },
    ],
  },
  {
    key: 'finance',
    title: '财务',
    children: [
      { key: 'finance.subsidy', title: '补贴' },
      { key: 'finance.prepay', title: '预付费充值' },
      { key: 'finance.refund', title: '退费' },
      { key: 'finance.billPay', title: '账单缴费' },
      { key: 'finance.settle', title: '结算' },
      { key: 'finance.audit', title: '审核' },
      { key: 'finance.receiptPrint', title: '票据打印' },
      { key: 'finance.roomTimedSubsidy', title: '房间定时补贴' },
      { key: 'finance.chargingScheme', title: '收费方案' },
      { key: 'finance.logExport', title: '财务日志导出' },
      { key: 'finance.withdraw', title: '商户提现' },
      { key: 'finance.dailyClose', title: '日结交班' },
      { key: 'finance.reverse', title: '作废冲正' },
      { key: 'finance.reconcile', title: '支付平台对账' },
    ],
  },
  {
    key: 'roomOwner',
    title: '房间与业主',
    children: [
      { key: 'room.basic', title: '房间基础信息' },
      { key: 'room.closeAccount', title: '销户' },
      { key: 'owner.basic', title: '业主基础信息' },
      { key: 'owner.export', title: '业主导出' },
    ],
  },
  {
    key: 'service',
    title: '增值服务',
    children: [
      { key: 'appeal.create', title: '登记诉求' },
      { key: 'appeal.handle', title: '诉求受理与处理' },
      { key: 'content.types', title: '公告/诉求/工单类型设置' },
      { key: 'notice.publish', title: '物业公告编辑与发布' },
    ],
  },
];

export const OPERATION_KEYS: string[] = PERMISSION_TREE.flatMap((g) => (g.children ?? []).map((c) => c.key));
export type OperationKey = (typeof OPERATION_KEYS)[number];
