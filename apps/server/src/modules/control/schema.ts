import { DLT645_PARAM_KEYS } from '../../gateway/frames.ts';

// Request shapes of the control API are declared with its endpoints (packages/contracts
// endpoints/control.ts); re-exported here for the services. What stays: the parameter keys each
// protocol accepts (the gateway's codec knows them).

export {
  BillByDeviceQuery,
  BulkCloseBody,
  CommandListQuery,
  ConfigSetBody,
  DealBody,
  FailListQuery,
  IdOrIdsBody,
  LimitBody,
  LoraListBody,
  MeterIdBody as IdBody,
  MeterFilterQuery as MeterListQuery,
  OpenBody,
  PowerReportQuery,
  ReadBody,
  ReadingListQuery,
  ReadTaskQuery,
  ReportListQuery,
  ReviewBody,
  ThirdBody,
  UnreadQuery,
  UnusualQuery,
  UpdateNoBody,
} from '@meter/contracts';

export const ELECTRIC_PARAM_KEYS = DLT645_PARAM_KEYS;
export const WATER_PARAM_KEYS = ['settleDay', 'syncTime'];
