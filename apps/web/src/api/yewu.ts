// Business calls (/yewu/api) the shell needs now: the area tree and the platform admin's company list.
// Archive, billing and report calls are added with their pages.
import type { AreaTreeNode } from '@meter/contracts';
import { call } from './endpoint.ts';
import { E } from './endpoints.gen.ts';

/** a node of the area tree (SPEC §3); rooms hang below the floors in GetAreaTree (their ids are room ids) */
export type AreaNode = AreaTreeNode;

export const areaApi = {
  /** the area tree, filtered by a trimmed search text (SPEC §5) */
  tree: (searchArea: string, searchCompanyID?: string) =>
    call(E.area.tree, { query: { searchArea: searchArea.trim(), searchCompanyID } }),
};

export const companyApi = {
  /** companies a platform admin may pick in the header */
  userCompanyList: () => call(E.company.userCompanies),
};
