// Input shapes of the online payment endpoints are declared with them (packages/contracts
// endpoints/payment.ts); re-exported here for the service and the hand-registered notify callback.

export { NotifyBody, PaymentListQuery, PayBody, SimulateBody, TradeQuery, type PayInput } from '@meter/contracts';
