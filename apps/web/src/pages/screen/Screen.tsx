// 大屏可视化 (/screen): a 1920×1080 dashboard scaled to the space it has (the shell's page area, or the
// whole screen after 全屏), dark, Chinese. Figures come from one summary (useScreenData: on a timer
// and soon after a live event), charts are ECharts canvases disposed on unmount. For a TV left on all
// day: lists are capped, every timer and listener ends with the page, charts are replaced, not merged.
import { useEffect, useMemo, useRef, useState } from 'react';
import { useStore } from '../../app/store.ts';
import { companyPick, usePage } from '../../app/page.tsx';
import { useScreenData } from './useScreenData.ts';
import ScreenChart from './ScreenChart.tsx';
import { AlarmList, KindSwitch, Panel, Tile, WorkOrderList } from './panels.tsx';
import { hourlyOption, monthOption, onlineOption, paymentOption, qty, sum, topOption, yuan } from './options.ts';
import './screen.css';

export const STAGE = { width: 1920, height: 1080 };
/** the 用电/用水 panels switch by themselves this often (nobody clicks a TV) */
export const ROTATE_MS = 20_000;
const WEEK = ['日', '一', '二', '三', '四', '五', '六'];

function Clock() {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const t = setInterval(() => setNow(new Date()), 1000);
    return () => clearInterval(t);
  }, []);
  const p = (n: number) => String(n).padStart(2, '0');
  return (
    <span className="screen-clock" data-testid="screen-clock">
      {`${now.getFullYear()}-${p(now.getMonth() + 1)}-${p(now.getDate())} 星期${WEEK[now.getDay()]} ${p(now.getHours())}:${p(now.getMinutes())}:${p(now.getSeconds())}`}
    </span>
  );
}

/** The stage's scale and offset in its viewport: the whole 1920×1080 visible, centred. */
function useFit(viewport: React.RefObject<HTMLDivElement | null>) {
  const [fit, setFit] = useState({ scale: 1, left: 0, top: 0, height: STAGE.height });
  useEffect(() => {
    const el = viewport.current;
    if (!el) return;
    const measure = () => {
      const full = document.fullscreenElement === el;
      const rect = el.getBoundingClientRect();
      // in the shell: down to the window's bottom edge; full screen: the whole screen
      const height = full ? window.innerHeight : Math.max(320, window.innerHeight - Math.max(0, rect.top) - 16);
      const width = full ? window.innerWidth : rect.width || STAGE.width;
      const scale = Math.min(width / STAGE.width, height / STAGE.height);
      // in the shell the viewport ends with the stage (no dark band below a width-bound stage)
      setFit({ scale, left: Math.max(0, (width - STAGE.width * scale) / 2), top: full ? Math.max(0, (height - STAGE.height * scale) / 2) : 0, height: full ? height : STAGE.height * scale });
    };
    measure();
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(measure);
    observer?.observe(el);
    window.addEventListener('resize', measure);
    document.addEventListener('fullscreenchange', measure);
    return () => {
      observer?.disconnect();
      window.removeEventListener('resize', measure);
      document.removeEventListener('fullscreenchange', measure);
    };
  }, [viewport]);
  return fit;
}

export default function Screen() {
  const { active } = usePage();
  const company = useStore(companyPick);
  const { data, error, loading, updatedAt } = useScreenData(company, active);
  const viewport = useRef<HTMLDivElement>(null);
  const fit = useFit(viewport);
  const [monthKind, setMonthKind] = useState<'electric' | 'water'>('electric');
  const [topKind, setTopKind] = useState<'electric' | 'water'>('electric');

  useEffect(() => {
    const t = setInterval(() => {
      setMonthKind((k) => (k === 'electric' ? 'water' : 'electric'));
      setTopKind((k) => (k === 'electric' ? 'water' : 'electric'));
    }, ROTATE_MS);
    return () => clearInterval(t);
  }, []);

  const options = useMemo(() => data && {
    hourly: hourlyOption(data),
    month: monthOption(data, monthKind),
    top: topOption(data.topRooms[topKind], topKind),
    online: onlineOption(data),
    payment: paymentOption(data),
  }, [data, monthKind, topKind]);

  const full = () => {
    const el = viewport.current;
    if (!el) return;
    if (document.fullscreenElement) void document.exitFullscreen().catch(() => undefined);
    else void el.requestFullscreen?.().catch(() => undefined);
  };

  const stageStyle = { width: STAGE.width, height: STAGE.height, transform: `translate(${fit.left}px, ${fit.top}px) scale(${fit.scale})` };
  return (
    <div className="screen-viewport" ref={viewport} style={{ height: fit.height }} data-testid="screen">
      <div className="screen-stage" style={stageStyle}>
        <header className="screen-head">
          <div className="screen-head-side">
            <Clock />
          </div>
          <h1 className="screen-title" data-testid="screen-title">{data ? `${data.scopeName} · ` : ''}智慧水电监控中心</h1>
          <div className="screen-head-side right">
            <span className={`screen-status ${error ? 'bad' : ''}`} data-testid="screen-updated">
              {error ? `数据刷新失败：${error}` : updatedAt ? `数据更新于 ${new Date(updatedAt).toLocaleTimeString('zh-CN', { hour12: false })}` : '数据加载中…'}
            </span>
            <button type="button" className="screen-button" onClick={full}>全屏</button>
          </div>
        </header>
        {!data ? (
          <div className="screen-loading">{loading ? '正在加载大屏数据…' : error || '暂无数据'}</div>
        ) : (
          <main className="screen-grid">
            <div className="screen-col">
              <Panel title="设备在线率" className="h-online" testId="panel-online">
                <ScreenChart option={options!.online} testId="chart-online" />
              </Panel>
              <Panel title="今日通断与欠费" className="h-supply" testId="panel-supply">
                <div className="screen-tiles three">
                  <Tile label="今日断电/关阀" value={String(data.supply.cutToday)} unit="次" tone={data.supply.cutToday ? 'warn' : undefined} testId="tile-cut" />
                  <Tile label="今日复电/开阀" value={String(data.supply.restoredToday)} unit="次" tone="good" testId="tile-restored" />
                  <Tile label="当前断开表具" value={String(data.supply.offNow)} unit="块" testId="tile-offnow" />
                  <Tile label="欠费户数" value={String(data.arrears.owners)} unit="户" tone={data.arrears.owners ? 'bad' : undefined} testId="tile-arrears" />
                  <Tile label="欠费总额" value={yuan(data.arrears.owedFen)} unit="元" tone={data.arrears.owedFen ? 'bad' : undefined} testId="tile-owed" />
                  <Tile label="余额不足户数" value={String(data.arrears.lowOwners)} unit="户" tone={data.arrears.lowOwners ? 'warn' : undefined} testId="tile-low" />
                </div>
              </Panel>
              <Panel title="今日缴费渠道" className="h-pay" testId="panel-payments" extra={<span className="screen-panel-extra">{data.payments.count} 笔</span>}>
                <ScreenChart option={options!.payment} testId="chart-payments" />
              </Panel>
            </div>
            <div className="screen-col center">
              <div className="screen-tiles kpi" data-testid="panel-kpi">
                <Tile label="今日用电" value={qty(sum(data.hourly.electric))} unit="kWh" testId="kpi-electric" />
                <Tile label="今日用水" value={qty(sum(data.hourly.water))} unit="m³" testId="kpi-water" />
                <Tile label="今日缴费" value={yuan(data.payments.totalFen)} unit="元" testId="kpi-paid" />
                <Tile label="待办工单" value={String(data.workOrders.open)} unit="件" tone={data.workOrders.overdue ? 'bad' : undefined} testId="kpi-workorders" />
                <Tile label="未处理告警" value={String(data.alarms.open)} unit="条" tone={data.alarms.open ? 'warn' : undefined} testId="kpi-alarms" />
              </div>
              <Panel title="今日分时用电 / 用水" className="h-chart" testId="panel-hourly">
                <ScreenChart option={options!.hourly} testId="chart-hourly" />
              </Panel>
              <Panel title={`本月与上月逐日${monthKind === 'electric' ? '用电' : '用水'}对比`} className="h-chart" testId="panel-month" extra={<KindSwitch value={monthKind} onChange={setMonthKind} />}>
                <ScreenChart option={options!.month} testId="chart-month" />
              </Panel>
            </div>
            <div className="screen-col">
              <Panel title={`本月${topKind === 'electric' ? '用电' : '用水'}排行 TOP10`} className="h-top" testId="panel-top" extra={<KindSwitch value={topKind} onChange={setTopKind} />}>
                {data.topRooms[topKind].length
                  ? <ScreenChart option={options!.top} testId="chart-top" />
                  : <div className="screen-empty">本月暂无{topKind === 'electric' ? '用电' : '用水'}数据</div>}
              </Panel>
              <Panel title="待办工单" className="h-list" testId="panel-workorders" extra={<span className="screen-panel-extra">{data.workOrders.open} 件{data.workOrders.overdue ? `，超期 ${data.workOrders.overdue}` : ''}</span>}>
                <WorkOrderList rows={data.workOrders.latest} max={6} />
              </Panel>
              <Panel title="设备告警" className="h-list" testId="panel-alarms" extra={<span className="screen-panel-extra">{data.alarms.open} 条未处理</span>}>
                <AlarmList rows={data.alarms.latest} max={6} />
              </Panel>
            </div>
          </main>
        )}
      </div>
    </div>
  );
}
