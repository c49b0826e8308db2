// 收费码 (/chargeCode, sys_companychargecode): the company's fee codes (物业费、公摊费…), each of one
// 收费类别 (SchemeEnum) with a fixed amount in 元, used by 业务缴费 at the counter. The page is the
// declared resource (chargeCodeResource, E.chargeCode) rendered by CrudPage.
import { chargeCodeResource } from '@meter/contracts';
import { CrudPage } from '../../components/CrudPage.tsx';
import { E } from '../../api/endpoints.gen.ts';

export default function ChargeCode() {
  return <CrudPage resource={chargeCodeResource} api={E.chargeCode} />;
}
