import type { FastifyInstance } from 'fastify';
import { API } from '@meter/contracts';
import { ownerCtx, publicCtx, routes } from '../../http/routes.ts';
import { rateLimiter, type AuthSettings } from '../auth/index.ts';
import type { FileSetup } from '../files/index.ts';
import type { Payments } from '../payment/index.ts';
import * as auth from './auth.ts';
import * as owner from './service.ts';

// 业主端 (issue 15 item 8), declared in packages/contracts/src/endpoints/ownerapp.ts, and the owner side
// of the notices (API.notice.ownerList/ownerRead). Every route but sign-in needs an owner session.

export interface OwnerAppSetup {
  payments: Payments;
  files: FileSetup;
  auth: AuthSettings;
}

export default async function ownerAppRoutes(app: FastifyInstance, s: OwnerAppSetup) {
  // sign-in attempts per address (apart from the back-office login's, which owners cannot starve)
  // and per phone or room: the login code, the phone login and the room login
  const perIp = await rateLimiter(app, { max: s.auth.loginPerIp ?? 30, timeWindow: 60_000, keyGenerator: (req) => `owner:${req.ip}` });
  const perAccount = await rateLimiter(app, {
    max: s.auth.loginPerAccount ?? 10,
    timeWindow: 60_000,
    keyGenerator: (req) => {
      const b = req.body as { phone?: unknown; roomId?: unknown } | undefined;
      return `owner:${String(b?.phone ?? '')}:${String(b?.roomId ?? '')}`;
    },
  });
  const r = routes(app);
  const O = API.ownerApp;
  const N = API.notice;
  const limited = { onRequest: [perIp], preHandler: [perAccount] };
  r.endpoint(O.sendCode, ({ body }, _c, req) => auth.sendCode(publicCtx(req), body.phone), limited);
  r.endpoint(O.loginPhone, ({ body }, _c, req) => auth.loginByPhone(publicCtx(req), body), limited);
  r.endpoint(O.loginRoom, ({ body }, _c, req) => auth.loginByRoom(publicCtx(req), body), limited);
  r.endpoint(O.password, ({ body }, _c, req) => auth.changePassword(ownerCtx(req), body));
  r.endpoint(O.logout, (_i, _c, req) => auth.logout(ownerCtx(req)));
  r.endpoint(O.me, (_i, _c, req) => owner.me(ownerCtx(req)));
  r.endpoint(O.usage, ({ query }, _c, req) => owner.usage(ownerCtx(req), query));
  r.endpoint(O.bills, ({ query }, _c, req) => owner.bills(ownerCtx(req), query));
  r.endpoint(O.journal, ({ query }, _c, req) => owner.journal(ownerCtx(req), query));
  r.endpoint(O.pay, ({ body }, _c, req) => owner.pay(ownerCtx(req), s.payments, body));
  r.endpoint(O.order, ({ query }, _c, req) => owner.order(ownerCtx(req), query.outTradeNo));
  r.endpoint(O.simulatePaid, ({ body }, _c, req) => owner.simulatePaid(ownerCtx(req), s.payments, body.outTradeNo));
  r.endpoint(O.appealTypes, (_i, _c, req) => owner.appealTypes(ownerCtx(req)));
  r.endpoint(O.appeals, ({ query }, _c, req) => owner.appeals(ownerCtx(req), query));
  r.endpoint(O.appeal, ({ query }, _c, req) => owner.appeal(ownerCtx(req), query.id));
  r.endpoint(O.createAppeal, ({ body }, _c, req) => owner.createAppeal(ownerCtx(req), body));
  r.endpoint(O.uploadToken, ({ query }, _c, req) => owner.uploadToken(ownerCtx(req), s.files, query.roomId));
  r.endpoint(O.file, ({ params }, _c, req, reply) => owner.file(ownerCtx(req), s.files, params.key, req, reply));
  r.endpoint(N.ownerList, ({ query }, _c, req) => owner.notices(ownerCtx(req), query));
  r.endpoint(N.ownerRead, ({ body }, _c, req) => owner.readNotice(ownerCtx(req), body.id));
}
