// The billing endpoints' input shapes are declared in packages/contracts (endpoints/billing-input.ts);
// the pieces the services and the payment modules share are re-exported here under their old names.
export {
  BillingId as id,
  BillingTimeRange as TimeRange,
  EnergyWallet,
  Money,
  PAY_METHODS,
  TRANSACTION_TYPES,
  type AddRoomSubsidyInput,
  type BillPayInput,
  type BusinessPayInput,
  type CancelInput,
  type CounterInput,
} from '@meter/contracts';
