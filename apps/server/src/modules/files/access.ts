import type { UploadKind } from '@meter/contracts';

// Who may see a stored file: the one place this is decided (issue 15 item 6). Public files: anyone.
// Private files: the platform, and the users of the company that uploaded them. The owner app (issue
// 15 item 8) adds its viewers here: an owner sees the private files of the rooms they live in.

export interface Viewer {
  /** a platform administrator (access level 0) */
  platform: boolean;
  companyId: number | null;
  /** an owner (the owner app): the rooms they may see */
  roomIds?: number[];
}

export interface FileOwnership {
  kind: UploadKind | string;
  companyId: number | null;
  roomId: number | null;
}

export function mayRead(viewer: Viewer | null, file: FileOwnership): boolean {
  if (file.kind === 'Public') return true;
  if (!viewer) return false;
  if (viewer.platform) return true;
  if (file.companyId === null || file.companyId !== viewer.companyId) return false;
  if (viewer.roomIds) return file.roomId !== null && viewer.roomIds.includes(file.roomId);
  return true;
}
