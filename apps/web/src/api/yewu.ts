// Business calls (/yewu/api) the shell needs now: the area tree and the platform admin's company list.
// Archive, billing and report calls are added with their pages.
import { http } from './request.ts';

const P = '/yewu/api';

export interface AreaNode {
  id: number;
  Parent: number | null;
  name: string;
  deep: number;
  /** 0 selectable node, 1 ignored */
  areaType: number;
  /** rooms hang below the floors in GetAreaTree; their ids are room ids, not area ids */
  kind?: 'area' | 'room';
  children?: AreaNode[];
  expand?: boolean;
  checked?: boolean;
  selected?: boolean;
}

export interface CompanyOption {
  id: number;
  name: string;
}

export const areaApi = {
  /** the area tree, filtered by a trimmed search text (SPEC §5) */
  tree: (searchArea: string, searchCompanyID?: string) =>
    http.get<AreaNode[]>(`${P}/GetAreaTree`, { searchArea: searchArea.trim(), searchCompanyID }),
};

export const companyApi = {
  /** companies a platform admin may pick in the header */
  userCompanyList: () => http.get<CompanyOption[]>(`${P}/Company/getUserCompanyList`),
};
