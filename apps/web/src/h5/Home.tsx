// 业主端 首页: my rooms with each wallet's balance, its alarm / supply state and the meters' switch state.
import { Link } from 'react-router';
import { Button, Empty, Tag } from 'antd';
import Loading from './Loading.tsx';
import type { OwnerRoom } from '@meter/contracts';
import { SUPPLY_TEXT, WATER_SUPPLY_TEXT, accountOf, useMe } from './data.ts';

function Balance({ room, wallet }: { room: OwnerRoom; wallet: 'electric' | 'water' }) {
  const a = accountOf(room, wallet);
  const label = wallet === 'electric' ? '电费余额' : '水费余额';
  if (!a) return <div className="h5-balance"><div className="h5-muted">{label}</div><div className="amount">¥0.00</div></div>;
  const supply = a.supply ? (wallet === 'water' ? WATER_SUPPLY_TEXT[a.supply] : SUPPLY_TEXT[a.supply]?.text) : null;
  const color = a.alarmLevel === 3 ? 'error' : a.alarmLevel > 0 ? 'warning' : 'success';
  return (
    <div className="h5-balance" data-testid={`balance-${room.roomId}-${wallet}`}>
      <div className="h5-muted">{label}</div>
      <div className={a.balance.startsWith('-') ? 'amount neg' : 'amount'}>¥{a.balance}</div>
      <Tag color={color}>{supply ? `欠费·${supply}` : a.alarmText}</Tag>
    </div>
  );
}

function RoomCard({ room }: { room: OwnerRoom }) {
  return (
    <section className="h5-card" aria-label={room.path}>
      <h2>{room.path}</h2>
      <div className="h5-muted">业主：{room.ownerName} · 房间编号：{room.roomId}</div>
      <div className="h5-balances">
        <Balance room={room} wallet="electric" />
        <Balance room={room} wallet="water" />
      </div>
      {room.meters.length > 0 && (
        <div style={{ marginBottom: 10 }}>
          {room.meters.map((m) => (
            <div key={m.id} className="h5-row">
              <span>{m.name}（{m.kind === 2 ? '水表' : '电表'}）</span>
              <span>
                {m.valveState === 0 ? <Tag color="error">{m.kind === 2 ? '关阀' : '断电'}</Tag> : m.valveState === 1 ? <Tag color="success">{m.kind === 2 ? '开阀' : '通电'}</Tag> : <Tag>状态未知</Tag>}
                {!m.online && <Tag>离线</Tag>}
              </span>
            </div>
          ))}
        </div>
      )}
      <div className="h5-actions">
        <Link to={`/h5/pay/${room.roomId}`}><Button type="primary" block>充值</Button></Link>
        <Link to={`/h5/room/${room.roomId}`}><Button block>用量与账单</Button></Link>
      </div>
    </section>
  );
}

export default function Home() {
  const me = useMe();
  if (me.isLoading) return <Loading block />;
  const d = me.data;
  return (
    <>
      <div className="h5-head">
        <h1>我的房间</h1>
        <span className="h5-muted">{d?.companyName}</span>
      </div>
      {d && d.rooms.length ? d.rooms.map((r) => <RoomCard key={r.roomId} room={r} />) : <Empty description="暂无房间，请联系物业" />}
    </>
  );
}
