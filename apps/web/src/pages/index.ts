// Route key → page component, each loaded lazily (route-level code splitting). Routes without a
// dedicated page yet share the generic placeholder, which renders the title from the registry.
import { lazyPage, type Page } from './lazyPage.ts';
import { CONTROL_PAGES } from './control/registry.ts';
import { BILLING_PAGES } from './fee/registry.ts';

const Placeholder: Page = lazyPage(() => import('../components/PlaceholderPage.tsx'));

const PAGES: Record<string, Page> = {
  home: lazyPage(() => import('./home/Home.tsx')),
  headUser: lazyPage(() => import('./home/HeadUser.tsx')),
  headSet: lazyPage(() => import('./home/HeadSet.tsx')),
  headQuestion: lazyPage(() => import('./home/HeadQuestion.tsx')),
  gether: lazyPage(() => import('./home/Gether.tsx')),
  chargeCode: lazyPage(() => import('./home/ChargeCode.tsx')),
  systemRecords: lazyPage(() => import('./system/SystemRecords.tsx')),
  systemRole: lazyPage(() => import('./system/SystemRole.tsx')),
  notesOperate: lazyPage(() => import('./notes/NotesOperate.tsx')),
  administrator: lazyPage(() => import('./platform/Administrator.tsx')),
  recordsFees: lazyPage(() => import('./records/RecordsFees.tsx')),
  recordsPolice: lazyPage(() => import('./records/RecordsPolice.tsx')),
  recordsCollect: lazyPage(() => import('./records/RecordsCollect.tsx')),
  recordsTable: lazyPage(() => import('./records/RecordsTable.tsx')),
  recordsRoom: lazyPage(() => import('./records/RecordsRoom.tsx')),
  recordsOwner: lazyPage(() => import('./records/RecordsOwner.tsx')),
  inRoomRecord: lazyPage(() => import('./notes/InRoomRecord.tsx')),
  systemFees: lazyPage(() => import('./system/SystemFees.tsx')),
  systemSend: lazyPage(() => import('./system/SystemSend.tsx')),
  recordsArea: lazyPage(() => import('./records/RecordsArea.tsx')),
  belongs: lazyPage(() => import('./platform/Belongs.tsx')),
  alermSmsConfigTemplate: lazyPage(() => import('./platform/AlermSmsConfigTemplate.tsx')),
  huifu: lazyPage(() => import('./platform/Huifu.tsx')),
  apply: lazyPage(() => import('./platform/Apply.tsx')),
  bankManagement: lazyPage(() => import('./platform/BankManagement.tsx')),
  noteBocLog: lazyPage(() => import('./notes/NoteBocLog.tsx')),
  teachingVideo: lazyPage(() => import('./platform/TeachingVideo.tsx')),
  addedAppeal: lazyPage(() => import('./added/AddedAppeal.tsx')),
  systemAppeal: lazyPage(() => import('./added/SystemAppeal.tsx')),
  addedNotice: lazyPage(() => import('./added/AddedNotice.tsx')),
  systemNotice: lazyPage(() => import('./system/SystemNotice.tsx')),
  screen: lazyPage(() => import('./screen/Screen.tsx')),
  ...CONTROL_PAGES,
  ...BILLING_PAGES,
};

export function pageFor(routeKey: string): Page {
  return PAGES[routeKey] ?? Placeholder;
}

/** Start loading a page's chunk ahead of its first render. */
export function preloadPage(routeKey: string): void {
  pageFor(routeKey).preload();
}

/** route keys that have a dedicated page (the rest render the placeholder) */
export const BUILT_PAGES = Object.keys(PAGES);
