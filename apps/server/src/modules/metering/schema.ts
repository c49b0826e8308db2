import type { z } from 'zod';

// Request shapes of the metering API are declared with its endpoints (packages/contracts
// endpoints/metering.ts); re-exported here for the services.

export {
  ADJUST_TEXT,
  ConfigListQuery,
  ControlMeterQuery,
  ManualReadingBody,
  ProtectEndBody,
  ProtectListQuery,
  ProtectStartBody,
  TimedCreateBody,
  TimedDeleteBody,
  TimedEnableBody,
  TimedListQuery,
  TimedUpdateBody,
} from '@meter/contracts';

export type Input<T extends z.ZodType> = z.output<T>;
