// 综合费用 (/energyTotal, a hidden route): the balances of the picked area (GetEnergyRoomSum) and the
// month's combined fees per owner — electricity, water and other fees, payments, arrears
// (usersettlementbill/list) — with 账单缴费 of the arrears.
import { useQuery } from '@tanstack/react-query';
import { useAreaFilter } from '../../app/page.tsx';
import { billingApi } from './billingApi.ts';
import { EnergySummary } from './Energy.tsx';
import { OwnerBills } from './CopyRead.tsx';

export default function EnergyTotal() {
  const area = useAreaFilter();
  const sum = useQuery({ queryKey: ['energyRoomSum', 'total', area], queryFn: () => billingApi.energyRoomSum({ ...area }) });
  return (
    <>
      <EnergySummary sum={sum.data} loading={!sum.isError} />
      <OwnerBills />
    </>
  );
}
