import fsp from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { SYSTEM_SCOPE, type Db } from '../db/client.ts';
import { teachingVideos } from '../db/schema/index.ts';
import { storeSpooled, type FileSetup } from '../modules/files/index.ts';

// The demo's tutorials (/teachingVideo, /headQuestion): two short videos and a text tutorial with
// pictures, stored as Public uploads through the same checks as any upload. Only into an empty list.

const ASSETS = path.join(import.meta.dirname, 'assets');

async function store(db: Db, files: FileSetup, file: string, name: string, accept: 'image' | 'video') {
  await fsp.mkdir(files.tmpDir, { recursive: true });
  const tmp = path.join(files.tmpDir, `demo-${randomBytes(6).toString('hex')}`);
  await fsp.copyFile(path.join(ASSETS, file), tmp);
  try {
    return (await storeSpooled(db, files, tmp, { kind: 'Public', companyId: null, userId: null, name, accept })).key;
  } finally {
    await fsp.rm(tmp, { force: true });
  }
}

export async function seedHelpDemo(db: Db, files: FileSetup, log: (s: string) => void = () => {}) {
  const [{ n }] = (await db.tx(SYSTEM_SCOPE, (tx) => tx.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM teaching_videos`))).rows;
  if (n > 0) return;
  const tour = await store(db, files, 'tour.webm', '平台概览与建档.webm', 'video');
  const pay = await store(db, files, 'pay.webm', '缴费与远程阀控.webm', 'video');
  const steps: string[] = [];
  for (let i = 1; i <= 3; i++) steps.push(await store(db, files, `meter-${i}.jpg`, `表具档案第${i}步.jpg`, 'image'));
  await db.tx(SYSTEM_SCOPE, (tx) => tx.insert(teachingVideos).values([
    { title: '平台概览：建立区域、房间和表具', mode: 1, video: [tour], content: '12 秒了解建档顺序：区域 → 房间 → 采集器 → 表具。', sort: 1 },
    { title: '缴费与远程阀控', mode: 1, video: [pay], content: '充值后欠费断开的表具自动恢复；远程阀控需输入阀控密码。', sort: 2 },
    {
      title: '如何登记一块新表具', mode: 2, images: steps, sort: 3,
      content: '1. 打开“档案管理 → 表具档案”，点击“新增”，选择电表或水表，填写 12 位表号、所属采集器和通讯规约。\n'
        + '2. 在“所属房间”中选择楼栋和房间后保存；一个房间可绑定多块电表、水表。\n'
        + '3. 在“随机抄表”中抄读一次，读数正常即表示表具在线，之后按收费方案自动计费。点击下方图片可放大查看（←/→ 切换，Esc 关闭）。',
    },
  ]));
  log('演示教学视频已写入（2 个视频教程、1 个文字教程）');
}
