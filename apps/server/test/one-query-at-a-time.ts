// A transaction is one connection: its queries run one after another. node-postgres still queues a query
// sent while another runs on the same client (Promise.all inside a transaction), but warns that pg 9 will
// refuse it. Any such query in an integration file fails that file, at its end, naming where it came from.
//
// pg's warning (util.deprecate) is given once per process, and the files of a worker share their process
// (vitest.config.ts: `isolate: false`): so client.query is watched here, once per process, for the very
// condition on which pg warns (a query sent while the client's queue is not empty), every time it holds.
// Vitest runs this file again before each file: each file starts with an empty list.
import { afterAll, expect } from 'vitest';
import pg from 'pg';

/** pg.Client's own fields that its query() reads before it warns (pg 8). */
interface Queued {
  _queryQueue?: unknown;
  _queryable?: boolean;
  _ending?: boolean;
  pipeline?: boolean;
}

const WATCH = Symbol.for('meter.test.overlappingQueries');
const watch = globalThis as { [WATCH]?: { overlapping: string[] } };

const state = (watch[WATCH] ??= (() => {
  const s = { overlapping: [] as string[] };
  const query = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: pg.Client & Queued, ...args: unknown[]) {
    if (!Array.isArray(this._queryQueue)) s.overlapping.push('pg.Client has no _queryQueue: this pg is not the one one-query-at-a-time.ts knows (pg 8)');
    else if (this._queryable !== false && !this._ending && this._queryQueue.length > 0 && !this.pipeline) s.overlapping.push(new Error('query sent while the client runs one').stack ?? '');
    return Reflect.apply(query, this, args);
  } as typeof query;
  return s;
})());
state.overlapping = [];

afterAll(() => {
  expect(state.overlapping, 'a query was sent on a pg client already running one').toEqual([]);
});
