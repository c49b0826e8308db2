// A transaction is one connection: its queries run one after another. node-postgres still queues a query
// sent while another runs on the same client (Promise.all inside a transaction), but warns that pg 9 will
// refuse it. Any such warning in an integration file fails that file, at its end, naming where it came from.
import { afterAll, expect } from 'vitest';

const overlapping: string[] = [];
process.on('warning', (w) => {
  if (w.message.includes('already executing a query')) overlapping.push(w.stack ?? w.message);
});

afterAll(() => {
  expect(overlapping, 'a query was sent on a pg client already running one').toEqual([]);
});
