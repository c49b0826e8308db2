// 收费类型 (/systemFees): what rooms are charged for (住宅用电, 商铺用水, 物业费…), each of one
// 费用类别 (ChargeTypeEnum). Rooms pick one; a type still used by rooms cannot be deleted.
// The page is the declared resource (chargingTypeResource, E.chargingType) rendered by CrudPage.
import { chargingTypeResource } from '@meter/contracts';
import { CrudPage } from '../../components/CrudPage.tsx';
import { E } from '../../api/endpoints.gen.ts';

/** The body as the page has always sent it: trimmed text, 在用 unless chosen otherwise. */
export function chargingTypeBody(v: Record<string, unknown>) {
  return { name: String(v.name ?? '').trim(), chargeType: v.chargeType, status: v.status ?? 1, memo: String(v.memo ?? '').trim() };
}

export default function SystemFees() {
  return <CrudPage resource={chargingTypeResource} api={E.chargingType} fromForm={chargingTypeBody} />;
}
