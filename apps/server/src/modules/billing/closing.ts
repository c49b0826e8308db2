import { randomUUID } from 'node:crypto';
import { Decimal } from 'decimal.js';
import { fenToYuan } from '@meter/contracts';
import type { Ctx } from '../../http/context.ts';
import { Page } from '../../http/envelope.ts';
import { badRequest, notFound, refuse } from '../../http/errors.ts';
import { offsetOf } from '../../http/paging.ts';
import { ingestReadings, SOURCE, requestSystemCommand, ORIGIN, controlRepo } from '../control/index.ts';
import { valvePassword } from '../company/index.ts';
import { endOwnerSessions, insertHistory } from '../owner/index.ts';
import { afterBalanceChange } from './alarms.ts';
import { occupiedRoom, writeReceipt } from './counter.ts';
import { WALLET_LABELS, post, type Wallet } from './ledger.ts';
import * as repo from './repo/index.ts';
import type { CancelInput } from './schema.ts';
import { settleAllPending } from './settlement.ts';

// 销户 (/accountCancel) and 恢复 (/accountOff), each one transaction:
// close: final readings (optional, through the control module's ingest) → settle everything pending →
// refuse while a wallet is in arrears → refund every positive balance (with receipts) → close the
// room's meters through the control module → accounts closed → the owner moves out (已销户).
// reopen: the owner moves back into a vacant room, the accounts open again (balance 0, so the alarm
// level is set without sending anything: the meters stay closed until a top-up opens them).

const operatorName = (ctx: Ctx) => ctx.user.realName || ctx.user.username;

export async function cancelAccount(ctx: Ctx, b: CancelInput) {
  // 销户 switches the room's meters off: where one has phaseId 1 the valve-control password is asked
  // and compared as for any close (its failures counted and audited outside this transaction)
  const inUse = await ctx.tx(async (tx) => (await repo.roomMeters(tx, b.roomId)).filter((m) => m.status === 1).map((m) => m.id));
  if (await ctx.tx((tx) => controlRepo.asksValvePassword(tx, inUse))) await valvePassword.verify(ctx, b.valvePassword);
  return ctx.tx(async (tx) => {
    const ro = await occupiedRoom(tx, b.roomId);
    ctx.audit.target = `${ro.path} ${ro.ownerName} 销户`;
    const meters = (await repo.roomMeters(tx, ro.roomId)).filter((m) => m.status !== 2);
    const byId = new Map(meters.map((m) => [m.id, m]));

    if (b.readings.length) {
      b.readings.forEach((r, i) => {
        if (!byId.has(r.meterId)) throw badRequest(`参数「readings.${i}.meterId」该表具不属于房间「${ro.roomName}」`);
      });
      const now = new Date();
      const { results } = await ingestReadings(tx, b.readings.map((r) => ({
        meter: { id: r.meterId, companyId: ro.companyId, areaId: byId.get(r.meterId)!.areaId },
        readAt: now,
        total: new Decimal(r.total).toFixed(2),
        source: SOURCE.manual,
        operatorId: ctx.user.id,
      })));
      results.forEach((res, i) => {
        if (res.exception) throw badRequest(`参数「readings.${i}.total」最终读数不能小于表具上次读数`);
      });
    }
    const settled = await settleAllPending(tx, meters.map((m) => m.id));

    const accounts = await repo.ownerAccounts(tx, ro.ownerId);
    const owing = accounts.find((a) => a.balanceFen < 0);
    if (owing) {
      throw refuse('ARREARS', `${WALLET_LABELS[owing.wallet as Wallet]}账户欠费 ¥${fenToYuan(-owing.balanceFen)}，请先缴清欠费后再销户`);
    }
    const refunds: { wallet: string; amount: string; receiptNo: string }[] = [];
    for (const a of accounts.filter((x) => x.balanceFen > 0)) {
      const wallet = a.wallet as Wallet;
      const r = await post(tx, {
        companyId: a.companyId, ownerId: a.ownerId, roomId: ro.roomId, wallet, kind: 'refund', amountFen: a.balanceFen,
        idempotencyKey: `close:${a.id}:${randomUUID()}`, payMethod: b.payMethod, refType: 'close', memo: b.memo || '销户退费',
        operatorId: ctx.user.id, operatorName: operatorName(ctx),
      });
      const rc = await writeReceipt(tx, ctx, {
        companyId: a.companyId, journalId: r.journalId, ownerId: a.ownerId, roomId: ro.roomId, kind: 'close', payMethod: b.payMethod,
        items: [{ item: `销户退还${WALLET_LABELS[wallet]}余额`, amountFen: a.balanceFen }], memo: b.memo,
      });
      refunds.push({ wallet, amount: fenToYuan(a.balanceFen), receiptNo: rc.no });
    }

    const valves = [];
    for (const m of meters.filter((x) => x.status === 1)) {
      const r = await requestSystemCommand(tx, {
        meterId: m.id, kind: 'close', origin: ORIGIN.manual, memo: `销户${m.kind === 2 ? '关阀' : '拉闸'}（${ro.ownerName}）`,
        requestedBy: ctx.user.id, requesterName: operatorName(ctx),
      });
      valves.push({ meterId: m.id, name: m.name, commandId: r.commandId, skipped: r.skipped ?? '' });
    }

    await repo.setAccountsState(tx, ro.ownerId, { status: 0, alarmLevel: 0 });
    await repo.closeOwner(tx, ro.ownerId);
    await endOwnerSessions(tx, ro.ownerId);
    await insertHistory(tx, {
      companyId: ro.companyId, ownerId: ro.ownerId, roomId: ro.roomId, areaId: ro.areaId, ownerName: ro.ownerName, ownerPhone: ro.ownerPhone,
      roomName: ro.path, action: 2, operatorId: ctx.user.id, operatorName: operatorName(ctx), memo: b.memo || '销户',
    });
    return { ownerId: ro.ownerId, settledReadings: settled.readings, refunds, valves };
  });
}

export async function reopenAccount(ctx: Ctx, b: { ownerId: number; roomId?: number; memo: string }) {
  return ctx.tx(async (tx) => {
    const o = await repo.lockOwner(tx, b.ownerId);
    if (!o) throw notFound('业主');
    if (o.status !== 2) throw refuse('NOT_CLOSED', `业主「${o.name}」的账户未销户，无需恢复`);
    const roomId = b.roomId ?? (await repo.lastRoomOf(tx, o.id));
    if (roomId == null) throw badRequest('参数「roomId」请选择入住的房间');
    const ro = await repo.roomOwner(tx, roomId);
    if (!ro) throw notFound('房间');
    if (ro.ownerId != null) throw refuse('ROOM_OCCUPIED', `房间「${ro.roomName}」已有在住业主「${ro.ownerName}」，请选择其他房间`);
    ctx.audit.target = `${ro.path} ${o.name} 恢复账户`;
    await repo.reopenOwner(tx, o.id, roomId);
    await repo.setAccountsState(tx, o.id, { status: 1, roomId, alarmLevel: 0 });
    await insertHistory(tx, {
      companyId: ro.companyId, ownerId: o.id, roomId, areaId: ro.areaId, ownerName: o.name, ownerPhone: o.phone, roomName: ro.path,
      action: 1, operatorId: ctx.user.id, operatorName: operatorName(ctx), memo: b.memo || '恢复账户',
    });
    // the alarm level follows the balance (0 after the closing refund), quietly: the meters were closed
    const accounts = await repo.ownerAccounts(tx, o.id);
    await afterBalanceChange(tx, accounts.map((a) => ({
      accountId: a.id, companyId: a.companyId, ownerId: a.ownerId, roomId, wallet: a.wallet as Wallet,
      beforeFen: a.balanceFen, afterFen: a.balanceFen, alarmLevel: 0, journalId: 0,
    })), { quiet: true });
    return { ownerId: o.id, roomId };
  });
}

export async function listClosed(ctx: Ctx, q: { index: number; size: number; searchArea?: number; ownerName?: string; roomName?: string }) {
  return ctx.tx(async (tx) => {
    const r = await repo.listClosed(tx, { areaRestricted: ctx.scope.areaIds != null, searchArea: q.searchArea, ownerName: q.ownerName, roomName: q.roomName }, q.size, offsetOf(q));
    return new Page(r.rows.map(({ refundFen, ...x }) => ({ ...x, refund: fenToYuan(Number(refundFen)) })), r.count);
  });
}
