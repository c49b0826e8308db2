// Input shapes of the pay-application endpoints are declared with them (packages/contracts
// endpoints/payapp.ts); re-exported here under the service's names.

export {
  PayAppBankBody as BankBody,
  PayAppIdQuery as IdQuery,
  PayAppJournalQuery as JournalQuery,
  PayAppListQuery as ListQuery,
  PayAppStatusBody as StatusBody,
  WithdrawalLogQuery as LogQuery,
  WithdrawalNoticeBody as NoticeBody,
  WithdrawBody,
  type PayAppAddInput as AddInput,
  type PayAppBankInput as BankInput,
  type PayAppJournalInput as JournalInput,
  type PayAppListInput as ListInput,
  type WithdrawalLogInput as LogInput,
  type WithdrawInput,
} from '@meter/contracts';
