import { z } from 'zod';
import { collectorResource, focusResource, formSchema, listQuerySchema, meterResource, typed, num } from '@meter/contracts';

// Request shapes of the device service, derived from the declared resources (packages/contracts);
// the interfaces name what the derived schemas produce.

import type { CollectorFilter, FocusFilter, MeterFilter } from './repo.ts';

type Paged<F> = F & { index: number; size: number };

export interface CollectorInput {
  name: string;
  imei: string;
  plan: number;
  areaId: number;
  simNo: string;
  installAddress: string;
  memo: string;
}

export interface MeterInput {
  name: string;
  kind: number;
  plan: number;
  address: string;
  roomId: number;
  collectorId: number | null;
  imei: string;
  protocolId: number | null;
  baudId: number | null;
  phaseId: number | null;
  gatewayId: number | null;
  portId: number | null;
  brandId: number | null;
  caliberId: number | null;
  typeId: number | null;
  multiplier: string;
  initialReading: string;
  chargingSchemeId: number | null;
  alarmSchemeId: number | null;
  installDate: string | null;
  reportInterval: number;
  status: number;
  memo: string;
}

export interface FocusInput {
  meterId: number;
  memo: string;
}

const id = num(z.number().int().positive());

const collectorForm = formSchema(collectorResource);
export const CollectorBody = typed<CollectorInput>(collectorForm);
export const CollectorUpdateBody = typed<CollectorInput & { id: number }>(collectorForm.extend({ id }));
export const CollectorListQuery = typed<Paged<CollectorFilter>>(listQuerySchema(collectorResource));

const meterForm = formSchema(meterResource);
export const MeterBody = typed<MeterInput>(meterForm);
export const MeterUpdateBody = typed<MeterInput & { id: number }>(meterForm.extend({ id }));
/** GET device/list (query) and POST device/list (the same filters in a JSON body) */
export const MeterListQuery = typed<Paged<MeterFilter>>(listQuerySchema(meterResource));

const focusForm = formSchema(focusResource);
export const FocusBody = typed<FocusInput>(focusForm);
export const FocusUpdateBody = typed<FocusInput & { id: number }>(focusForm.extend({ id }));
export const FocusListQuery = typed<Paged<FocusFilter>>(listQuerySchema(focusResource));

export const LookupPageQuery = z.object({
  index: num(z.number().int().min(1)).default(1),
  size: num(z.number().int().min(1).max(1000)).default(20),
});

/** The legacy group calls accept any object: they are refused whatever they carry (SPEC §8). */
export const AnyBody = z.record(z.string(), z.unknown()).optional();

export type CollectorQuery = z.output<typeof CollectorListQuery>;
export type MeterQuery = z.output<typeof MeterListQuery>;
export type FocusQuery = z.output<typeof FocusListQuery>;
