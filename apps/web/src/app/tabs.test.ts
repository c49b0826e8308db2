import { describe, expect, it } from 'vitest';
import { createTabsStore, HOME_KEY } from './tabs.ts';
import { KEYS } from './storage.ts';

function memoryStorage() {
  const m = new Map<string, string>();
  return { get: (k: string) => m.get(k) ?? null, set: (k: string, v: string) => void m.set(k, v), remove: (k: string) => void m.delete(k), m };
}

describe('tabs store', () => {
  it('starts with home pinned and opens tabs once, activating them', () => {
    const t = createTabsStore({ storage: memoryStorage() });
    expect(t.get()).toEqual({ keys: [HOME_KEY], active: HOME_KEY });
    t.open('energy');
    t.open('recordsRoom');
    t.open('energy');
    expect(t.get()).toEqual({ keys: ['home', 'energy', 'recordsRoom'], active: 'energy' });
  });

  it('close current activates the right neighbour, or the left one at the end', () => {
    const t = createTabsStore({ storage: memoryStorage() });
    ['a', 'b', 'c'].forEach((k) => t.open(k));
    t.open('b');
    expect(t.close('b')).toBe('c');
    expect(t.get()).toEqual({ keys: ['home', 'a', 'c'], active: 'c' });
    expect(t.close('c')).toBe('a');
    expect(t.get().keys).toEqual(['home', 'a']);
  });

  it('closing an inactive tab keeps the active one', () => {
    const t = createTabsStore({ storage: memoryStorage() });
    ['a', 'b'].forEach((k) => t.open(k));
    expect(t.close('a')).toBe('b');
    expect(t.get()).toEqual({ keys: ['home', 'b'], active: 'b' });
  });

  it('home cannot be closed', () => {
    const t = createTabsStore({ storage: memoryStorage() });
    t.open('a');
    t.close(HOME_KEY);
    expect(t.get().keys).toEqual(['home', 'a']);
  });

  it('close others keeps home and the given tab; close all keeps home', () => {
    const t = createTabsStore({ storage: memoryStorage() });
    ['a', 'b', 'c'].forEach((k) => t.open(k));
    expect(t.closeOthers('b')).toBe('b');
    expect(t.get()).toEqual({ keys: ['home', 'b'], active: 'b' });
    ['x', 'y'].forEach((k) => t.open(k));
    expect(t.closeAll()).toBe(HOME_KEY);
    expect(t.get()).toEqual({ keys: ['home'], active: 'home' });
    t.open('z');
    expect(t.closeOthers(HOME_KEY)).toBe(HOME_KEY);
    expect(t.get().keys).toEqual(['home']);
  });

  it('persists to storage and restores on reload, dropping invalid keys', () => {
    const storage = memoryStorage();
    const t = createTabsStore({ storage, isValid: (k) => k !== 'gone' });
    ['energy', 'gone', 'recordsRoom'].forEach((k) => t.open(k));
    t.open('energy');
    expect(JSON.parse(storage.get(KEYS.tabs)!)).toEqual({ keys: ['home', 'energy', 'gone', 'recordsRoom'], active: 'energy' });

    const reloaded = createTabsStore({ storage, isValid: (k) => k !== 'gone' });
    reloaded.restore();
    expect(reloaded.get()).toEqual({ keys: ['home', 'energy', 'recordsRoom'], active: 'energy' });
  });

  it('restore falls back to home for garbage and an unknown active tab', () => {
    const storage = memoryStorage();
    storage.set(KEYS.tabs, '{not json');
    const t = createTabsStore({ storage });
    t.restore();
    expect(t.get()).toEqual({ keys: ['home'], active: 'home' });
    storage.set(KEYS.tabs, JSON.stringify({ keys: ['a', 'home', 'a'], active: 'zzz' }));
    t.restore();
    expect(t.get()).toEqual({ keys: ['home', 'a'], active: 'a' });
  });

  it('does not persist when persistence is off, and reset forgets everything', () => {
    const storage = memoryStorage();
    let persist = false;
    const t = createTabsStore({ storage, persist: () => persist });
    t.open('a');
    expect(storage.get(KEYS.tabs)).toBeNull();
    persist = true;
    t.sync();
    expect(storage.get(KEYS.tabs)).not.toBeNull();
    t.reset();
    expect(storage.get(KEYS.tabs)).toBeNull();
    expect(t.get().keys).toEqual(['home']);
  });
});
