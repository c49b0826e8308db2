// 日结单 / 交班单: the printable slip of a business day — money received per pay method (收款, 退款,
// 冲正, 净额), per operator with their hand-over state, and what was credited without being money
// (补贴, 系统入账, 期初余额). An open day prints as a preview (未日结), a closed one with who closed it.
import { useState } from 'react';
import { Button, Modal, Space, Spin, Tag, Typography } from 'antd';
import { PrinterOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useCan } from '../../app/session.ts';
import { financeApi, type DayDetail, type MethodFigures } from './financeApi.ts';
import { fmtTime, money } from './money.ts';
import './receipt.css';

const cell = (v: string) => money(v) || '¥0.00';

function MethodRows({ methods }: { methods: MethodFigures[] }) {
  return (
    <>
      {methods.map((m) => (
        <tr key={m.method} data-testid={`slip-method-${m.method}`}>
          <td>{m.methodText}</td>
          <td className="receipt-amount">{cell(m.receipt)}</td>
          <td className="receipt-amount">{cell(m.refund)}</td>
          <td className="receipt-amount">{cell(m.reversal)}</td>
          <td className="receipt-amount"><b>{cell(m.net)}</b></td>
          <td className="receipt-amount">{m.count}</td>
        </tr>
      ))}
    </>
  );
}

const OPERATOR_METHODS: MethodFigures['method'][] = ['cash', 'wechat', 'alipay', 'bank'];

/** An operator's row: the name, the net by method (现金, 微信, 支付宝, 银行), the net, then the 交班 cell. */
function OperatorCells({ o, handover }: { o: { operatorName: string; methods: MethodFigures[]; net: string }; handover: string }) {
  return (
    <>
      <td>{o.operatorName}</td>
      {OPERATOR_METHODS.map((k) => <td key={k} className="receipt-amount">{cell(o.methods.find((x) => x.method === k)?.net ?? '0.00')}</td>)}
      <td className="receipt-amount"><b>{cell(o.net)}</b></td>
      <td>{handover}</td>
    </>
  );
}

/** The slip itself. */
export function ClosingSlip({ detail }: { detail: DayDetail }) {
  const closed = detail.state === 'closed';
  return (
    <div className="receipt-paper" data-testid="closing-slip">
      <h2>{detail.companyName}</h2>
      <div className="receipt-sub">
        <b>日结单</b>（营业日 {detail.day}）{closed ? <Tag color="green">已日结</Tag> : <Tag color="orange">未日结（预览）</Tag>}
      </div>
      <table>
        <thead>
          <tr>
            <th>支付方式</th>
            <th className="receipt-amount">收款</th>
            <th className="receipt-amount">退款</th>
            <th className="receipt-amount">冲正</th>
            <th className="receipt-amount">净额</th>
            <th className="receipt-amount">笔数</th>
          </tr>
        </thead>
        <tbody>
          <MethodRows methods={detail.totals.methods} />
          <tr>
            <td colSpan={4}>实收合计</td>
            <td className="receipt-amount"><b data-testid="slip-net">{cell(detail.totals.net)}</b></td>
            <td className="receipt-amount">{detail.totals.count}</td>
          </tr>
        </tbody>
      </table>
      <div style={{ margin: '12px 0 4px' }}><b>操作员交班</b></div>
      <table>
        <thead>
          <tr>
            <th>操作员</th>
            <th className="receipt-amount">现金</th>
            <th className="receipt-amount">微信</th>
            <th className="receipt-amount">支付宝</th>
            <th className="receipt-amount">银行</th>
            <th className="receipt-amount">净额</th>
            <th>交班</th>
          </tr>
        </thead>
        <tbody>
          {detail.operators.length === 0 && (
            <tr><td colSpan={7}>当日没有柜台收款</td></tr>
          )}
          {detail.operators.map((o) => (
            <tr key={o.operatorId} data-testid={`slip-operator-${o.operatorId}`}>
              <OperatorCells o={o} handover={o.handover.state === 'closed' ? `已交班 ${fmtTime(o.handover.closedAt)}` : '未交班'} />
            </tr>
          ))}
          {detail.totals.operators.filter((o) => o.operatorId == null).map((o) => (
            <tr key="online">
              <OperatorCells o={o} handover="-" />
            </tr>
          ))}
        </tbody>
      </table>
      {detail.totals.nonCash.length > 0 && (
        <div style={{ marginTop: 8 }} data-testid="slip-noncash">
          非实收入账（不计入实收）：{detail.totals.nonCash.map((n) => `${n.kindText} ${cell(n.amount)}（${n.count} 笔）`).join('；')}
        </div>
      )}
      <div className="receipt-foot">
        <div>
          {closed && detail.closing ? (
            <div>日结人：{detail.closing.closedByName}，日结时间：{fmtTime(detail.closing.closedAt)}{detail.closing.memo ? `，备注：${detail.closing.memo}` : ''}</div>
          ) : (
            <div>本营业日尚未日结，金额以日结时为准</div>
          )}
          <div>打印人：{detail.printedByName}，打印时间：{fmtTime(new Date().toISOString())}</div>
        </div>
        <div>财务签字：__________</div>
      </div>
    </div>
  );
}

/** The slip of a day in a dialog: 打印, and (with finance.dailyClose) 交班 / 日结 from it. */
export function ClosingSlipModal({ day, company, onClose, onCloseDay, onHandover }: {
  day: string | null;
  company?: string;
  onClose(): void;
  onCloseDay(day: string): void;
  onHandover(day: string, operatorId: number, operatorName: string): void;
}) {
  const canClose = useCan('finance.dailyClose');
  const [printing, setPrinting] = useState(false);
  const { data, isFetching } = useQuery({ queryKey: ['closingDay', day, company], queryFn: () => financeApi.day(day!, company), enabled: day != null });
  const open = data?.state === 'open';
  const print = () => {
    setPrinting(true);
    setTimeout(() => {
      window.print();
      setPrinting(false);
    }, 50);
  };
  return (
    <Modal
      open={day != null}
      title={`日结单 ${day ?? ''}`}
      width={900}
      onCancel={onClose}
      destroyOnHidden
      footer={
        <Space className="receipt-no-print" wrap>
          <Button onClick={onClose}>关闭</Button>
          {canClose && open && data?.operators.filter((o) => o.handover.state === 'open').map((o) => (
            <Button key={o.operatorId} onClick={() => onHandover(data.day, o.operatorId, o.operatorName)}>{o.operatorName} 交班</Button>
          ))}
          {canClose && open && <Button danger onClick={() => onCloseDay(data!.day)}>日结</Button>}
          <Button type="primary" icon={<PrinterOutlined />} loading={printing} disabled={!data} onClick={print}>打印</Button>
        </Space>
      }
    >
      <Spin spinning={isFetching && !data}>
        {data ? (
          <div className="receipt-print">
            <ClosingSlip detail={data} />
          </div>
        ) : (
          <Typography.Text type="secondary">正在加载…</Typography.Text>
        )}
      </Spin>
    </Modal>
  );
}
