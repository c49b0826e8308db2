import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { OWNER_URL } from '../../test/helpers.ts';
import { BinaryCopyWriter } from './copy-binary.ts';
import { copyIn } from './copy.ts';

// The binary COPY writer against PostgreSQL itself: what goes in comes back exactly, for the edge
// values of every type it writes.

let client: pg.Client;

beforeAll(async () => {
  client = new pg.Client({ connectionString: OWNER_URL() });
  await client.connect();
  await client.query(`CREATE TEMP TABLE bin_copy (
    n int, a bigint, t timestamptz, i int, x numeric(14, 2), y numeric, j jsonb, s varchar(32), z bigint)`);
});
afterAll(async () => {
  await client.end();
});

const numerics = ['0', '0.00', '-0.00', '0.50', '10000.00', '100000000.00', '20000.05', '7', '0.5', '0.05', '12.30', '1234.56', '10000', '99999999.99', '100000000.01', '-1.50', '-12345678.9', '0.0001', '123456789012.34'];
const unconstrained = ['0', '1.23456789', '-98765.4321', '100000000000000000000.000000000001', '0.00000001', '5'];

describe('BinaryCopyWriter', () => {
  it('writes bigint, int, timestamptz, numeric, jsonb, varchar and nulls that read back exactly', async () => {
    const times = [new Date('2026-11-22T08:15:30.123Z'), new Date('1999-12-31T23:59:59.999Z'), new Date('2000-01-01T00:00:00.000Z'), new Date('1970-01-01T00:00:00.001Z'), new Date('2100-06-30T12:00:00.000Z')];
    const bigs = [0, 1, -1, 2 ** 32, 2 ** 32 - 1, -(2 ** 32), Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER, 123456789012];
    const jsons = [{}, { valve: 1, statusST: 0, settlementFlow: '12.34', batteryLow: false }, { note: '阀门\t关闭\n"引号"\\反斜杠' }, [1, 2, 3]];
    const texts = ['', 'backwards', '读数倒走', 'tab\there', 'nl\nhere', 'back\\slash'];
    const w = new BinaryCopyWriter(16); // tiny: the buffer has to grow
    const n = Math.max(numerics.length, times.length, bigs.length, jsons.length, texts.length, unconstrained.length);
    for (let k = 0; k < n; k++) {
      w.row(9)
        .int4(k)
        .int8(bigs[k % bigs.length])
        .timestamptz(times[k % times.length])
        .int4(k % 2 ? -k : k)
        .numeric(numerics[k % numerics.length])
        .numeric(unconstrained[k % unconstrained.length])
        .jsonb(JSON.stringify(jsons[k % jsons.length]))
        .text(texts[k % texts.length])
        .int8(k % 3 ? null : k * 1000);
    }
    w.row(9).int4(n).null().null().null().null().null().null().null().null();
    await copyIn(client, 'COPY bin_copy FROM STDIN (FORMAT binary)', w.finish());

    const r = await client.query(
      `SELECT n, a::text, (extract(epoch FROM t) * 1000)::float8 AS ms, i, x::text, y::text, j, s, z::text FROM bin_copy ORDER BY n`,
    );
    expect(r.rows).toHaveLength(n + 1);
    for (let k = 0; k < n; k++) {
      const row = r.rows[k];
      expect(row.n).toBe(k);
      expect(row.a).toBe(String(bigs[k % bigs.length]));
      expect(row.ms).toBe(times[k % times.length].getTime());
      expect(row.i).toBe(k % 2 ? -k : k);
      // numeric(14,2) as PostgreSQL parses the same text
      const expected = await client.query(`SELECT $1::numeric(14, 2)::text AS x, $2::numeric::text AS y`, [numerics[k % numerics.length], unconstrained[k % unconstrained.length]]);
      expect(row.x).toBe(expected.rows[0].x);
      expect(row.y).toBe(expected.rows[0].y);
      expect(row.j).toEqual(jsons[k % jsons.length]);
      expect(row.s).toBe(texts[k % texts.length]);
      expect(row.z).toBe(k % 3 ? null : String(k * 1000));
    }
    expect(r.rows[n]).toEqual({ n, a: null, ms: null, i: null, x: null, y: null, j: null, s: null, z: null });
  });

  it('refuses what it cannot write exactly', () => {
    const w = new BinaryCopyWriter();
    expect(() => w.int8(2 ** 53)).toThrow(RangeError);
    expect(() => w.int8(1.5)).toThrow(RangeError);
    expect(() => w.numeric('1e5')).toThrow(RangeError);
    expect(() => w.numeric('12,5')).toThrow(RangeError);
    expect(() => w.timestamptz(new Date(Number.NaN))).toThrow(RangeError);
  });
});
