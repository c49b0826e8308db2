import { openDb } from '../../../db/client.ts';
import { sendQueued } from '../service.ts';
import { aliyunSms } from './aliyun.ts';

// A sender in a process of its own, for sms-crash.int.test.ts: sends what is queued through 阿里云短信
// (the SDK against the emulator at EMU_ENDPOINT) and — when KILL_AFTER is set — kills itself with
// SIGKILL right after the provider accepted the KILL_AFTER-th message of COMPANY, before the outcome is
// recorded (a crash between the provider's answer and the commit).

const db = openDb(process.env.APP_URL!, 2);
const company = Number(process.env.COMPANY);
const killAfter = Number(process.env.KILL_AFTER ?? 0);
const aliyun = aliyunSms({
  accessKeyId: process.env.AK!, accessKeySecret: process.env.SECRET!, signName: '测试物业', templateCode: 'SMS_100000001',
  endpoint: process.env.EMU_ENDPOINT!, protocol: 'HTTP',
});
let accepted = 0;
await sendQueued(
  db,
  {
    name: aliyun.name,
    find: aliyun.find,
    receipts: aliyun.receipts,
    async send(m) {
      const r = await aliyun.send(m);
      if (m.companyId === company && ++accepted === killAfter) process.kill(process.pid, 'SIGKILL');
      return r;
    },
  },
  // everything queued at once (the demo seed queues notifications too), so this company's are in the claim
  { limit: 5000, leaseMs: Number(process.env.LEASE_MS ?? 300_000) },
);
await db.close();
