import { describe, expect, it } from 'vitest';
import { coalesced } from './coalesced.ts';

/** a task whose runs the test ends one by one */
function gated() {
  const gates: (() => void)[] = [];
  let runs = 0;
  let active = 0;
  let most = 0;
  const task = async () => {
    runs++;
    active++;
    most = Math.max(most, active);
    await new Promise<void>((r) => gates.push(r));
    active--;
  };
  const tick = () => new Promise((r) => setImmediate(r));
  return { task, gates, tick, stats: () => ({ runs, most }) };
}

describe('coalesced', () => {
  it('calls during a run give exactly one more run after it, never two at once', async () => {
    const g = gated();
    const run = coalesced(g.task);
    const first = run();
    await g.tick();
    // three calls while the first run waits: one more run, not three
    const during = [run(), run(), run()];
    g.gates.shift()!();
    await g.tick();
    expect(g.stats()).toEqual({ runs: 2, most: 1 });
    g.gates.shift()!();
    await Promise.all([first, ...during]);
    expect(g.stats()).toEqual({ runs: 2, most: 1 });
    // after the series a call runs at once again
    const later = run();
    await g.tick();
    expect(g.stats().runs).toBe(3);
    g.gates.shift()!();
    await later;
  });

  it('a call during the extra run asks for another one', async () => {
    const g = gated();
    const run = coalesced(g.task);
    const all = [run()];
    await g.tick();
    all.push(run());
    g.gates.shift()!();
    await g.tick();
    all.push(run());
    g.gates.shift()!();
    await g.tick();
    g.gates.shift()!();
    await Promise.all(all);
    expect(g.stats()).toEqual({ runs: 3, most: 1 });
  });

  it('a failing run rejects its callers; the next call starts afresh', async () => {
    let n = 0;
    const run = coalesced(async () => {
      n++;
      if (n === 1) throw new Error('boom');
    });
    await expect(run()).rejects.toThrow('boom');
    await run();
    expect(n).toBe(2);
  });
});
