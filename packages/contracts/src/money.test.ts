import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  addDecimal,
  amountToChinese,
  fenToYuan,
  formatMoney,
  isNumeric,
  mulDecimal,
  mulPrice,
  roundHalfUpToFen,
  subDecimal,
  toNumberString,
  yuanToFen,
} from './money.ts';

describe('amountToChinese', () => {
  const vectors: Array<[string | number, string]> = [
    // zero and under one yuan (no 元)
    [0, '零元整'],
    ['0', '零元整'],
    ['0.00', '零元整'],
    [0.5, '伍角'],
    ['0.1', '壹角'],
    ['0.10', '壹角'],
    [0.05, '伍分'],
    [0.55, '伍角伍分'],
    // 整 only without 角 and 分
    [1, '壹元整'],
    [100, '壹佰元整'],
    ['20.30', '贰拾元叁角'],
    [20.35, '贰拾元叁角伍分'],
    [20.05, '贰拾元零伍分'],
    [1.5, '壹元伍角'],
    [1.05, '壹元零伍分'],
    [12.3, '壹拾贰元叁角'],
    // no 零 between 元 and 角; 零 before 分 when 角 is 0
    [1680.32, '壹仟陆佰捌拾元叁角贰分'],
    [1680.02, '壹仟陆佰捌拾元零贰分'],
    [30000.06, '叁万元零陆分'],
    ['200000000.02', '贰亿元零贰分'],
    // 10–19 begin with 壹拾
    [10, '壹拾元整'],
    [15, '壹拾伍元整'],
    [19, '壹拾玖元整'],
    ['10.1', '壹拾元壹角'],
    [110000, '壹拾壹万元整'],
    // zeros inside a group and between 万 / 亿 groups, collapsed to one 零
    [1001.01, '壹仟零壹元零壹分'],
    [1010, '壹仟零壹拾元整'],
    [6007, '陆仟零柒元整'],
    [100000, '壹拾万元整'],
    [100100, '壹拾万零壹佰元整'],
    [100010, '壹拾万零壹拾元整'],
    [40500, '肆万零伍佰元整'],
    [107000.53, '壹拾万柒仟元伍角叁分'],
    [10000001, '壹仟万零壹元整'],
    [100000000, '壹亿元整'],
    [100000001, '壹亿零壹元整'],
    [110000000, '壹亿壹仟万元整'],
    [1000010000, '壹拾亿零壹万元整'],
    [1010101010, '壹拾亿壹仟零壹拾万壹仟零壹拾元整'],
    ['999999999999.99', '玖仟玖佰玖拾玖亿玖仟玖佰玖拾玖万玖仟玖佰玖拾玖元玖角玖分'],
    // beyond 9999亿: 万亿 (up to 16 integer digits)
    ['1000000000000', '壹万亿元整'],
    ['1000500000000', '壹万零伍亿元整'],
    ['9999999999999999.99', '玖仟玖佰玖拾玖万玖仟玖佰玖拾玖亿玖仟玖佰玖拾玖万玖仟玖佰玖拾玖元玖角玖分'],
    // numbers use their decimal value, not binary float noise
    [0.3, '叁角'],
    [-0, '零元整'],
  ];

  it.each(vectors)('%j → %s', (input, expected) => {
    expect(amountToChinese(input)).toBe(expected);
  });

  const invalid: Array<string | number> = [
    '012', '00', '-1', -1, -0.5, '1e5', 'abc', '', ' 1', '1 ', '1.', '.5', '+1', '0x10', '1,000',
    '1.234', 1.005, '12.300', 0.1 + 0.2, NaN, Infinity, -Infinity,
    '10000000000000000', // 17 integer digits
    1e21,
  ];

  it.each(invalid)('invalid %j → ""', (input) => {
    expect(amountToChinese(input)).toBe('');
  });

  it('returns "" for non-string, non-number input at runtime', () => {
    expect(amountToChinese(null as unknown as string)).toBe('');
    expect(amountToChinese(10n as unknown as string)).toBe('');
  });
});

describe('isNumeric / toNumberString', () => {
  it.each(['12', '-0.50', '+3', '007', '0', '123456789012345678901234567890.123'])('isNumeric(%j) is true', (v) => {
    expect(isNumeric(v)).toBe(true);
  });
  it.each([0, 1.5, -2, 1e21])('isNumeric(%j) is true for finite numbers', (v) => {
    expect(isNumeric(v)).toBe(true);
  });
  it.each(['', ' ', ' 1', '1e5', '0x10', 'abc', '1.', '.5', '1,000', '--1', 'Infinity', 'NaN'])(
    'isNumeric(%j) is false',
    (v) => {
      expect(isNumeric(v)).toBe(false);
      expect(toNumberString(v)).toBe('');
    },
  );
  it('isNumeric is false for non-finite numbers and non-strings', () => {
    for (const v of [NaN, Infinity, -Infinity, null, undefined, {}, [], 1n, true]) {
      expect(isNumeric(v)).toBe(false);
      expect(toNumberString(v)).toBe('');
    }
  });
  it('toNumberString canonicalises', () => {
    expect(toNumberString('007.50')).toBe('7.5');
    expect(toNumberString('-0')).toBe('0');
    expect(toNumberString('-0.00')).toBe('0');
    expect(toNumberString('+3')).toBe('3');
    expect(toNumberString(0.1)).toBe('0.1');
    expect(toNumberString(-0)).toBe('0');
    expect(toNumberString(1e21)).toBe('1000000000000000000000');
    expect(toNumberString(1e-7)).toBe('0.0000001');
  });
});

describe('addDecimal / subDecimal / mulDecimal / mulPrice', () => {
  it('adds exactly', () => {
    expect(addDecimal(0.1, 0.2)).toBe('0.3');
    expect(addDecimal('0.1', '0.2', '-0.3')).toBe('0');
    expect(addDecimal()).toBe('0');
    expect(addDecimal('9007199254740993', '0.01')).toBe('9007199254740993.01');
  });
  it('subtracts exactly', () => {
    expect(subDecimal('1', '0.9')).toBe('0.1');
    expect(subDecimal(0.3, 0.1)).toBe('0.2');
    expect(subDecimal('0', '12.5')).toBe('-12.5');
  });
  it('multiplies exactly', () => {
    expect(mulDecimal('1.1', '1.1')).toBe('1.21');
    expect(mulDecimal(0.1, 3)).toBe('0.3');
    expect(mulDecimal('-2', '0')).toBe('0');
  });
  it('mulPrice: quantity × 4-decimal unit price, unrounded', () => {
    expect(mulPrice('123.456', '0.5678')).toBe('70.0983168');
    expect(roundHalfUpToFen(mulPrice('123.456', '0.5678'))).toBe(7010);
    expect(mulPrice('3', '0.3333')).toBe('0.9999');
    expect(mulPrice('1234567890.123', '1.2345')).toBe('1524074060.3568435');
  });
  it('throws TypeError on non-numeric input', () => {
    expect(() => addDecimal('1', 'x')).toThrow(TypeError);
    expect(() => subDecimal('1e5', '1')).toThrow(TypeError);
    expect(() => mulDecimal(NaN, 1)).toThrow(TypeError);
    expect(() => mulPrice('', '1')).toThrow(TypeError);
  });
});

describe('yuanToFen', () => {
  it('converts exactly', () => {
    expect(yuanToFen('12.3')).toBe(1230);
    expect(yuanToFen('1234.50')).toBe(123450);
    expect(yuanToFen('1.230')).toBe(123); // trailing zeros are not extra precision
    expect(yuanToFen(0.07)).toBe(7); // 0.07 * 100 === 7.000000000000001 in float
    expect(yuanToFen(4.35)).toBe(435); // 4.35 * 100 === 434.99999999999994 in float
    expect(yuanToFen(1.1)).toBe(110);
    expect(yuanToFen('-0.05')).toBe(-5);
    expect(yuanToFen('90071992547409.91')).toBe(Number.MAX_SAFE_INTEGER);
  });
  it('never returns -0', () => {
    expect(Object.is(yuanToFen('-0'), 0)).toBe(true);
    expect(Object.is(yuanToFen(-0), 0)).toBe(true);
  });
  it('rejects more than 2 decimals', () => {
    expect(() => yuanToFen('1.234')).toThrow(RangeError);
    expect(() => yuanToFen(1.005)).toThrow(RangeError);
    expect(() => yuanToFen(0.1 + 0.2)).toThrow(RangeError);
  });
  it('rejects non-numeric and out-of-range input', () => {
    expect(() => yuanToFen('abc')).toThrow(TypeError);
    expect(() => yuanToFen('')).toThrow(TypeError);
    expect(() => yuanToFen('1e5')).toThrow(TypeError);
    expect(() => yuanToFen(Infinity)).toThrow(TypeError);
    expect(() => yuanToFen('90071992547409.92')).toThrow(RangeError);
  });
});

describe('roundHalfUpToFen', () => {
  it('rounds half-up (ties away from zero)', () => {
    expect(roundHalfUpToFen('0.125')).toBe(13);
    expect(roundHalfUpToFen('-0.125')).toBe(-13);
    expect(roundHalfUpToFen('0.0049')).toBe(0);
    expect(roundHalfUpToFen('0.005')).toBe(1);
    expect(roundHalfUpToFen('2.675')).toBe(268);
    expect(roundHalfUpToFen(1.005)).toBe(101); // Math.round(1.005 * 100) would give 100
    expect(roundHalfUpToFen('12')).toBe(1200);
    expect(roundHalfUpToFen('70.0983168')).toBe(7010);
  });
  it('never returns -0', () => {
    expect(Object.is(roundHalfUpToFen('-0.004'), 0)).toBe(true);
  });
  it('throws on bad input', () => {
    expect(() => roundHalfUpToFen('abc')).toThrow(TypeError);
    expect(() => roundHalfUpToFen('100000000000000000000')).toThrow(RangeError);
  });
});

describe('fenToYuan / formatMoney', () => {
  it('fenToYuan gives exactly 2 decimals', () => {
    expect(fenToYuan(123450)).toBe('1234.50');
    expect(fenToYuan(0)).toBe('0.00');
    expect(fenToYuan(-0)).toBe('0.00');
    expect(fenToYuan(5)).toBe('0.05');
    expect(fenToYuan(-5)).toBe('-0.05');
    expect(fenToYuan(123n)).toBe('1.23');
    expect(fenToYuan('-1200')).toBe('-12.00');
    expect(fenToYuan('99999999999999999999')).toBe('999999999999999999.99');
    expect(fenToYuan(Number.MAX_SAFE_INTEGER)).toBe('90071992547409.91');
  });
  it('fenToYuan rejects non-integers and unsafe numbers', () => {
    expect(() => fenToYuan(1.5)).toThrow(RangeError);
    expect(() => fenToYuan(NaN)).toThrow(RangeError);
    expect(() => fenToYuan(2 ** 53)).toThrow(RangeError);
    expect(() => fenToYuan('1.0')).toThrow(TypeError);
    expect(() => fenToYuan('')).toThrow(TypeError);
  });
  it('formatMoney adds ¥, thousands separators and a leading minus', () => {
    expect(formatMoney(123450)).toBe('¥1,234.50');
    expect(formatMoney(-1200)).toBe('-¥12.00');
    expect(formatMoney(0)).toBe('¥0.00');
    expect(formatMoney(-0)).toBe('¥0.00');
    expect(formatMoney(99)).toBe('¥0.99');
    expect(formatMoney(-5)).toBe('-¥0.05');
    expect(formatMoney(12345)).toBe('¥123.45');
    expect(formatMoney(100000000)).toBe('¥1,000,000.00');
    expect(formatMoney(123456789n)).toBe('¥1,234,567.89');
    expect(formatMoney('-12345678901')).toBe('-¥123,456,789.01');
  });
});

/** Test-only decoder: 大写金额 → fen, to check amountToChinese round-trips. */
function decodeChinese(s: string): bigint {
  const digits = '零壹贰叁肆伍陆柒捌玖';
  const units: Record<string, bigint> = { 拾: 10n, 佰: 100n, 仟: 1000n };
  let total = 0n; // yuan, completed 亿 sections
  let section = 0n; // yuan below the current 亿
  let group = 0n; // yuan below the current 万
  let num = 0n;
  let fen = 0n;
  for (const ch of s) {
    const d = digits.indexOf(ch);
    if (d >= 0) num = BigInt(d);
    else if (ch in units) {
      group += num * units[ch]!;
      num = 0n;
    } else if (ch === '万') {
      section += (group + num) * 10_000n;
      group = 0n;
      num = 0n;
    } else if (ch === '亿') {
      total = (total + section + group + num) * 100_000_000n;
      section = 0n;
      group = 0n;
      num = 0n;
    } else if (ch === '元') {
      total += section + group + num;
      section = 0n;
      group = 0n;
      num = 0n;
    } else if (ch === '角') {
      fen += num * 10n;
      num = 0n;
    } else if (ch === '分') {
      fen += num;
      num = 0n;
    } else if (ch !== '整') throw new Error(`unexpected ${ch}`);
  }
  return total * 100n + fen;
}

describe('properties', () => {
  it('yuanToFen(fenToYuan(n)) === n for safe integers', () => {
    fc.assert(
      fc.property(fc.integer({ min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }), (n) => {
        expect(yuanToFen(fenToYuan(n))).toBe(n);
      }),
    );
  });

  it('roundHalfUpToFen agrees with yuanToFen on 2-decimal values', () => {
    fc.assert(
      fc.property(fc.integer({ min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }), (n) => {
        expect(roundHalfUpToFen(fenToYuan(n))).toBe(n);
      }),
    );
  });

  const fenUpTo16Digits = fc.bigInt({ min: 0n, max: 10n ** 18n - 1n });
  const fenSmallOrRound = fc.oneof(
    fenUpTo16Digits,
    // many zeros, to exercise 零 between 万/亿 groups
    fc.tuple(fc.bigInt({ min: 0n, max: 9999n }), fc.integer({ min: 0, max: 14 })).map(([m, e]) => m * 10n ** BigInt(e)),
    fc.array(fc.constantFrom(0n, 0n, 0n, 1n, 5n), { minLength: 1, maxLength: 18 }).map((ds) =>
      ds.reduce<bigint>((acc, d) => acc * 10n + d, 0n),
    ),
  );

  it('amountToChinese round-trips and never has two consecutive 零', () => {
    fc.assert(
      fc.property(fenSmallOrRound, (fen) => {
        const text = amountToChinese(fenToYuan(fen));
        expect(text).not.toBe('');
        expect(text).not.toMatch(/零零/);
        if (fen !== 0n) expect(text).not.toMatch(/零[元万亿角分整]/); // only 零元整 may have that
        expect(text).not.toMatch(/元零角/);
        expect(text.endsWith('整')).toBe(fen % 100n === 0n);
        expect(decodeChinese(text)).toBe(fen);
      }),
      { numRuns: 2000 },
    );
  });

  it('a number argument behaves like its decimal string', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10 ** 15 - 1 }), (fen) => {
        expect(amountToChinese(fen / 100)).toBe(amountToChinese(fenToYuan(fen)));
      }),
    );
  });
});
