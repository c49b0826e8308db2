// 银行管理 (/bankManagement, platform management): the banks a sub-merchant's settlement account can be
// at (Bank/List, declared once as bankResource); 对应结算银行 ties a bank to a company's 结算银行 (bankType).
import { bankResource } from '@meter/contracts';
import { E } from '../../api/endpoints.gen.ts';
import { CrudPage } from '../../components/CrudPage.tsx';

export default function BankManagement() {
  return <CrudPage resource={bankResource} api={E.bank} headerTitle="银行管理" />;
}
