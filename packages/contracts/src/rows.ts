// Rows the archive lists answer with, shared by the server's repositories and the web's API calls.

/** RoomInfo/GetAllChildRoom, getNoUserRoom and RoomInfo/Detail */
export interface RoomRow {
  Id: number;
  companyId: number;
  name: string;
  areaId: number;
  /** the area path from the top visible ancestor, e.g. 阳光园区/1号楼/1层 */
  areaName: string | null;
  decoration: number;
  orientation: number;
  chargingTypeId: number | null;
  chargingTypeName: string | null;
  sizeM2: string;
  status: number;
  memo: string;
  createdAt: string;
  ownerId: number | null;
  ownerName: string | null;
  ownerPhone: string | null;
  meterCount: number;
}

// OwnerRow (userinfo/list, userinfo/detail/{id}) is declared with its endpoints (endpoints/owner.ts).
