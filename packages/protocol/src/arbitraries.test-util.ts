/**
 * fast-check generators for every message kind of both codecs. Test-only (not exported from the
 * package index); shared by the round-trip tests and the fuzz test.
 */
import fc from 'fast-check';
import {
  DLT645_CONTROL,
  DLT645_DATA_ITEMS,
  type Dlt645Message,
  type Dlt645Values,
  type Dlt645ValueFormat,
} from './dlt645.ts';
import { CJT188_CONTROL, CJT188_DI, type Cjt188Message, type Cjt188MeterDataInput } from './cjt188.ts';
import type { MeterDateTime } from './bcd.ts';

const digits = (n: number) => fc.stringMatching(new RegExp(`^[0-9]{${n}}$`));
const bytes = (maxLength: number, minLength = 0) => fc.uint8Array({ minLength, maxLength });
const byte = fc.integer({ min: 0, max: 255 });
const bcd2 = fc.integer({ min: 0, max: 99 });

export const dltAddress = fc.oneof(
  { weight: 8, arbitrary: digits(12) },
  { weight: 1, arbitrary: fc.constant('AAAAAAAAAAAA') },
  { weight: 1, arbitrary: fc.constant('999999999999') },
);

/** BCD-representable date-time (calendar not enforced: the codec does not enforce it either). */
export const meterDateTime: fc.Arbitrary<MeterDateTime> = fc.record({
  year: fc.integer({ min: 2000, max: 2099 }),
  month: bcd2,
  day: bcd2,
  hour: bcd2,
  minute: bcd2,
  second: bcd2,
});

/** Exactly representable fixed-point value: an integer count of 10^-decimals units. */
function fixedPoint(bytesLen: number, decimals: number, signed: boolean): fc.Arbitrary<number> {
  const maxMagnitude = signed ? 8 * 10 * 100 ** (bytesLen - 1) - 1 : 100 ** bytesLen - 1;
  return fc
    .record({ n: fc.integer({ min: 0, max: maxMagnitude }), neg: signed ? fc.boolean() : fc.constant(false) })
    .map(({ n, neg }) => {
      const v = decimals === 0 ? n : n / 10 ** decimals;
      return neg ? -v : v;
    });
}

function valuesFor(format: Dlt645ValueFormat): fc.Arbitrary<Dlt645Values> {
  switch (format.type) {
    case 'bcd':
      return fixedPoint(format.bytes, format.decimals, format.signed).map((value) => ({ value }));
    case 'date':
      return fc.record({ year: fc.integer({ min: 2000, max: 2099 }), month: bcd2, day: bcd2, weekday: bcd2 });
    case 'time':
      return fc.record({ hour: bcd2, minute: bcd2, second: bcd2 });
    case 'address':
      return fc.oneof(digits(12), fc.constant('AAAAAAAAAAAA')).map((address) => ({ address }));
    case 'statusWord3':
      return fc.oneof(
        fc.integer({ min: 0, max: 0xffff }).map((raw) => ({ raw })),
        fc.record({
          relayState: fc.constantFrom('connected', 'disconnected'),
          relayCommand: fc.constantFrom('connect', 'disconnect'),
          preTripAlarm: fc.boolean(),
          meterType: fc.constantFrom('postpaid', 'energyPrepaid', 'moneyPrepaid'),
          powerHold: fc.boolean(),
        }),
      );
  }
}

const knownDltIds = Object.keys(DLT645_DATA_ITEMS).map(Number);
const knownDltSet = new Set(knownDltIds);

/** Control codes the DL/T 645 decoder interprets (anything else decodes as `raw`). */
const DLT_INTERPRETED = new Set<number>([
  DLT645_CONTROL.BROADCAST_TIME,
  DLT645_CONTROL.READ,
  DLT645_CONTROL.READ_RESPONSE,
  DLT645_CONTROL.READ_RESPONSE_FOLLOWING,
  DLT645_CONTROL.READ_ADDRESS,
  DLT645_CONTROL.READ_ADDRESS_RESPONSE,
  DLT645_CONTROL.REMOTE_CONTROL,
  DLT645_CONTROL.REMOTE_CONTROL_RESPONSE,
]);

const dltReadResponseKnown: fc.Arbitrary<Dlt645Message> = fc
  .constantFrom(...knownDltIds)
  .chain((dataId) =>
    fc.record({
      kind: fc.constant('read' as const),
      direction: fc.constant('response' as const),
      address: dltAddress,
      dataId: fc.constant(dataId),
      hasFollowing: fc.boolean(),
      values: valuesFor(DLT645_DATA_ITEMS[dataId].format),
    }),
  );

const dltReadResponseUnknown: fc.Arbitrary<Dlt645Message> = fc.record({
  kind: fc.constant('read' as const),
  direction: fc.constant('response' as const),
  address: dltAddress,
  dataId: fc.integer({ min: 0, max: 0xffffffff }).filter((d) => !knownDltSet.has(d)),
  payload: bytes(60),
});

/** Every DL/T 645 message kind. */
export const dltMessage: fc.Arbitrary<Dlt645Message> = fc.oneof(
  fc.record(
    {
      kind: fc.constant('read' as const),
      direction: fc.constant('request' as const),
      address: dltAddress,
      dataId: fc.oneof(fc.constantFrom(...knownDltIds), fc.integer({ min: 0, max: 0xffffffff })),
      extra: bytes(6, 1),
    },
    { requiredKeys: ['kind', 'direction', 'address', 'dataId'] },
  ),
  dltReadResponseKnown,
  dltReadResponseUnknown,
  fc.record({ kind: fc.constant('readAddress' as const), direction: fc.constant('request' as const), address: dltAddress }),
  fc.record({
    kind: fc.constant('readAddress' as const),
    direction: fc.constant('response' as const),
    address: dltAddress,
    meterAddress: digits(12),
  }),
  fc.record({
    kind: fc.constant('broadcastTime' as const),
    direction: fc.constant('request' as const),
    address: dltAddress,
    time: meterDateTime,
  }),
  fc.record({
    kind: fc.constant('remoteControl' as const),
    direction: fc.constant('request' as const),
    address: dltAddress,
    password: fc.record({ level: byte, code: fc.stringMatching(/^[0-9A-F]{6}$/) }),
    operator: fc.stringMatching(/^[0-9A-F]{8}$/),
    command: fc.constantFrom(0x1a, 0x1b, 0x1c, 0x2a, 0x2b, 0x3a, 0x3b),
    reserved: byte,
    expiry: meterDateTime,
  }),
  fc.record({ kind: fc.constant('remoteControl' as const), direction: fc.constant('response' as const), address: dltAddress }),
  fc.record({
    kind: fc.constant('error' as const),
    direction: fc.constant('response' as const),
    address: dltAddress,
    func: fc.integer({ min: 0, max: 0x1f }),
    errorCode: byte,
  }),
  fc.record({
    kind: fc.constant('raw' as const),
    address: dltAddress,
    control: byte.filter((c) => !DLT_INTERPRETED.has(c) && (c & 0xe0) !== 0xc0),
    data: bytes(120),
  }),
);

// ---------------------------------------------------------------------------------------------

const cjtAddress = fc.oneof({ weight: 8, arbitrary: digits(14) }, { weight: 1, arbitrary: fc.constant('AAAAAAAAAAAAAA') });
const diOrder = fc.constantFrom('be' as const, 'le' as const);
const nullable = <T>(a: fc.Arbitrary<T>) => fc.oneof({ weight: 5, arbitrary: a }, { weight: 1, arbitrary: fc.constant(null) });
const realTime = nullable(
  fc
    .tuple(bcd2, bcd2, bcd2, bcd2, bcd2, bcd2, bcd2)
    .map((p) => {
      const s = p.map((n) => String(n).padStart(2, '0'));
      return `${s[0]}${s[1]}-${s[2]}-${s[3]} ${s[4]}:${s[5]}:${s[6]}`;
    }),
);
/** A CJ/T 188 reading with its unit code: `key` (unsigned fixed point, or null) and `${key}Unit` (a byte). */
function withUnit<K extends string>(key: K, bytesLen: number, decimals: number) {
  return { [key]: nullable(fixedPoint(bytesLen, decimals, false)), [`${key}Unit`]: byte } as
    { [P in K]: fc.Arbitrary<number | null> } & { [P in `${K}Unit`]: fc.Arbitrary<number> };
}
const statusInput = fc.integer({ min: 0, max: 0xffff }).map((raw) => ({ raw }));

const flowData: fc.Arbitrary<Cjt188MeterDataInput> = fc.record({
  kind: fc.constant('flow' as const),
  ...withUnit('currentFlow', 4, 2),
  ...withUnit('settlementFlow', 4, 2),
  realTime,
  status: statusInput,
});

const heatData: fc.Arbitrary<Cjt188MeterDataInput> = fc.record({
  kind: fc.constant('heat' as const),
  ...withUnit('settlementHeat', 4, 2),
  ...withUnit('currentHeat', 4, 2),
  ...withUnit('heatPower', 4, 2),
  ...withUnit('flowRate', 4, 4),
  ...withUnit('cumulativeFlow', 4, 2),
  supplyTemperature: nullable(fixedPoint(3, 2, false)),
  returnTemperature: nullable(fixedPoint(3, 2, false)),
  workingHours: nullable(fixedPoint(3, 0, false)),
  realTime,
  status: statusInput,
});

const flowType = fc.oneof(fc.integer({ min: 0x10, max: 0x19 }), fc.integer({ min: 0x30, max: 0x39 }));
const heatType = fc.integer({ min: 0x20, max: 0x29 });
const KNOWN_CJT_DI = new Set<number>(Object.values(CJT188_DI));
const swap16 = (d: number) => ((d & 0xff) << 8) | (d >> 8);
/** DIs outside the known set whose byte-swapped form is not known either (so order detection is unambiguous). */
const unknownCjtDi = fc.integer({ min: 0, max: 0xffff }).filter((d) => !KNOWN_CJT_DI.has(d) && !KNOWN_CJT_DI.has(swap16(d)));

const CJT_INTERPRETED = new Set<number>([
  CJT188_CONTROL.READ_DATA,
  CJT188_CONTROL.READ_DATA_RESPONSE,
  CJT188_CONTROL.READ_ADDRESS,
  CJT188_CONTROL.READ_ADDRESS_RESPONSE,
  CJT188_CONTROL.WRITE_DATA,
  CJT188_CONTROL.WRITE_DATA_RESPONSE,
]);

/** What every readData request carries besides its data identifier. */
const cjtReadRequest = {
  kind: fc.constant('readData' as const),
  direction: fc.constant('request' as const),
  meterType: byte,
  address: cjtAddress,
  ser: byte,
};

/** Every CJ/T 188 message kind. Unknown DIs are only generated in the standard (`be`) order. */
export const cjtMessage: fc.Arbitrary<Cjt188Message> = fc.oneof(
  fc.oneof(
    fc.record({ ...cjtReadRequest, diOrder, dataId: fc.constant(CJT188_DI.METER_DATA) }),
    fc.record({ ...cjtReadRequest, dataId: unknownCjtDi }),
  ),
  fc.oneof(flowType.map((t) => [t, 'flow'] as const), heatType.map((t) => [t, 'heat'] as const)).chain(([meterType, kind]) =>
    fc.record({
      kind: fc.constant('readData' as const),
      direction: fc.constant('response' as const),
      meterType: fc.constant(meterType),
      address: cjtAddress,
      ser: byte,
      diOrder,
      values: kind === 'flow' ? flowData : heatData,
    }),
  ),
  fc.record({
    kind: fc.constant('readData' as const),
    direction: fc.constant('response' as const),
    meterType: byte,
    address: cjtAddress,
    ser: byte,
    dataId: unknownCjtDi,
    payload: bytes(60),
  }),
  fc.record({
    kind: fc.constant('readAddress' as const),
    direction: fc.constantFrom('request' as const, 'response' as const),
    meterType: byte,
    address: cjtAddress,
    ser: byte,
    diOrder,
  }),
  fc.record({
    kind: fc.constant('valveControl' as const),
    direction: fc.constant('request' as const),
    meterType: byte,
    address: cjtAddress,
    ser: byte,
    diOrder,
    valve: fc.oneof(fc.constantFrom(0x55, 0x99), byte),
  }),
  fc.record({
    kind: fc.constant('valveControl' as const),
    direction: fc.constant('response' as const),
    meterType: byte,
    address: cjtAddress,
    ser: byte,
    diOrder,
    status: fc.oneof(
      statusInput,
      fc.record({ valve: fc.constantFrom('open' as const, 'closed' as const, 'abnormal' as const, 'unknown' as const), batteryLow: fc.boolean() }),
    ),
  }),
  fc.record({
    kind: fc.constant('raw' as const),
    meterType: byte,
    address: cjtAddress,
    control: byte.filter((c) => !CJT_INTERPRETED.has(c)),
    data: bytes(120),
  }),
);
