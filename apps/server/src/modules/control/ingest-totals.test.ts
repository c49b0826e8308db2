import { describe, expect, it } from 'vitest';
import { hundredths } from './ingest.ts';

describe('hundredths', () => {
  it('reads numeric(14,2) as PostgreSQL prints it, and nothing else', () => {
    expect(hundredths('0.50')).toBe(50);
    expect(hundredths('0.00')).toBe(0);
    expect(hundredths('1234.56')).toBe(123456);
    expect(hundredths('999999999999.99')).toBe(99999999999999);
    for (const s of ['', '1', '1.5', '1.500', '01.00', '00.00', '-1.00', '+1.00', '1,00', '1e2.00', ' 1.00', '1000000000000.00', '1.0a', '.50'])
      expect(hundredths(s), s).toBeNull();
  });
});
