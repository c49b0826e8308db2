// Pure helpers of the area form: the four-level address (SPEC §3/§9: cascader levels 0–3 —
// province, city, district, town) as one value, and the suggestions for a level.
import { PROVINCES } from '@meter/contracts';

export type Address = [string, string, string, string];
export const EMPTY_ADDRESS: Address = ['', '', '', ''];

export interface AddressRow {
  province: string;
  city: string;
  district: string;
  town: string;
}

export function addressOf(r: Partial<AddressRow>): Address {
  return [r.province ?? '', r.city ?? '', r.district ?? '', r.town ?? ''];
}

export function addressFields(a: readonly string[] | undefined): AddressRow {
  const v = (i: number) => String(a?.[i] ?? '').trim();
  return { province: v(0), city: v(1), district: v(2), town: v(3) };
}

/** Changing a level clears the levels below it (a city belongs to its province, and so on). */
export function setLevel(a: Address, level: number, value: string): Address {
  const out = [...a] as Address;
  out[level] = value;
  for (let i = level + 1; i < 4; i++) out[i] = '';
  return out;
}

/**
 * Names offered at a level: the provinces at level 0; below, the names the company's areas already
 * use under the same upper levels (distinct, in order).
 */
export function suggestions(used: AddressRow[], a: Address, level: number): string[] {
  if (level === 0) return [...new Set([...used.map((u) => u.province).filter(Boolean), ...PROVINCES])];
  const keys: (keyof AddressRow)[] = ['province', 'city', 'district', 'town'];
  const out: string[] = [];
  for (const u of used) {
    if (keys.slice(0, level).some((k, i) => u[k] !== a[i])) continue;
    const v = u[keys[level]];
    if (v && !out.includes(v)) out.push(v);
  }
  return out;
}

/** The first level left blank while a lower one is filled (the server refuses such a gap), or -1. */
export function addressGap(a: readonly string[]): number {
  return a.findIndex((v, i) => !v && a.slice(i + 1).some(Boolean));
}
