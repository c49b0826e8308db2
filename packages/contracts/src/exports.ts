// The .xlsx exports and their columns, declared once: the server writes each export's columns from
// here (header + width), the export configuration (GET/PUT /export/api/save/config) says which of
// them a company's exports carry, and /headSet lets a company admin pick them.

export interface ExportColumnDef {
  header: string;
  width: number;
}

export interface ExportLayout {
  title: string;
  /** the page the export belongs to (whoever may open it sees its configuration) */
  route: string;
  columns: readonly ExportColumnDef[];
}

const cols = (...pairs: [string, number][]): ExportColumnDef[] => pairs.map(([header, width]) => ({ header, width }));

export const EXPORT_LAYOUTS = {
  settlement: {
    title: '抄表结算', route: 'copyread',
    columns: cols(
      ['表具名称', 18], ['表具地址', 16], ['类型', 6], ['房间', 12], ['业主', 10], ['上次抄表时间', 20], ['本次抄表时间', 20], ['上次读数', 12],
      ['本次读数', 12], ['倍率', 8], ['用量', 12], ['单位', 6], ['金额（元）', 12], ['结算周期', 10], ['状态', 12], ['结算时间', 20],
    ),
  },
  reportCheck: {
    title: '对账报表', route: 'reportCheck',
    columns: cols(
      ['日期', 12], ['现金笔数', 10], ['现金（元）', 12], ['微信笔数', 10], ['微信（元）', 12], ['支付宝笔数', 10], ['支付宝（元）', 12], ['银行笔数', 10],
      ['银行（元）', 12], ['收款合计（元）', 14], ['退费笔数', 10], ['退费（元）', 12], ['冲正笔数', 10], ['冲正（元）', 12], ['净收款（元）', 14],
      ['补贴笔数', 10], ['补贴（元）', 12], ['系统入账笔数', 12], ['系统入账（元）', 14], ['期初余额笔数', 12], ['期初余额（元）', 14], ['扣费（元）', 12],
      ['费用（元）', 12],
    ),
  },
  reportBank: {
    title: '银行报表', route: 'reportBank',
    columns: cols(['日期', 12], ['渠道', 22], ['笔数', 8], ['金额（元）', 14], ['已审核笔数', 12]),
  },
  reportDeduct: {
    title: '扣费报表', route: 'reportDeduct',
    columns: cols(
      ['日期', 12], ['表具类型', 10], ['结算笔数', 10], ['表具数', 8], ['用量', 12], ['单位', 6], ['金额（元）', 12], ['已扣费（元）', 12], ['空置未扣（元）', 14],
    ),
  },
  reportFees: {
    title: '费用报表', route: 'reportFees',
    columns: cols(
      ['房间', 14], ['业主', 10], ['用电量（kWh）', 14], ['电费（元）', 12], ['用水量（m³）', 14], ['水费（元）', 12], ['其他费用（元）', 14], ['补贴（元）', 12],
      ['费用合计（元）', 14], ['充值实收（元）', 14], ['退费（元）', 12], ['系统入账（元）', 14], ['期初余额（元）', 14],
    ),
  },
  reconcile: {
    title: '支付平台对账', route: 'financerecode',
    columns: cols(
      ['对账日期', 12], ['支付平台', 10], ['单位', 18], ['类型', 8], ['商户订单号', 28], ['退款单号', 36], ['支付平台交易号', 32], ['支付时间', 20], ['房间', 16], ['业主', 12],
      ['平台金额（元）', 14], ['本地金额（元）', 14], ['本地状态', 10], ['对账结果', 10], ['补单时间', 20], ['补单人', 12],
    ),
  },
  owner: {
    title: '业主档案', route: 'recordsOwner',
    columns: cols(
      ['业主编号', 10], ['业主姓名', 12], ['手机号码', 14], ['身份证号', 21], ['性别', 6], ['房间', 14], ['区域位置', 28], ['状态', 8], ['入住时间', 20],
      ['邮箱', 22], ['备注', 24], ['创建时间', 20],
    ),
  },
} satisfies Record<string, ExportLayout>;

export type ExportKey = keyof typeof EXPORT_LAYOUTS;
export const EXPORT_KEYS = Object.keys(EXPORT_LAYOUTS) as ExportKey[];

/** The columns of `key` with these cells' keys (exports that write rows as objects). */
export function keyedColumns<K extends string>(key: ExportKey, keys: readonly K[]): (ExportColumnDef & { key: K })[] {
  const columns = EXPORT_LAYOUTS[key].columns;
  if (keys.length !== columns.length) throw new Error(`export ${key}: ${keys.length} keys for ${columns.length} columns`);
  return columns.map((c, i) => ({ ...c, key: keys[i] }));
}
