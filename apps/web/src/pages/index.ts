// Route key → page component, each loaded lazily (route-level code splitting). Routes without a
// dedicated page yet share the generic placeholder, which renders the title from the registry.
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { CONTROL_PAGES } from './control/registry.ts';
import { BILLING_PAGES } from './fee/registry.ts';

type Page = LazyExoticComponent<ComponentType>;

const Placeholder: Page = lazy(() => import('../components/PlaceholderPage.tsx'));

const PAGES: Record<string, Page> = {
  home: lazy(() => import('./home/Home.tsx')),
  headUser: lazy(() => import('./home/HeadUser.tsx')),
  headSet: lazy(() => import('./home/HeadSet.tsx')),
  headQuestion: lazy(() => import('./home/HeadQuestion.tsx')),
  systemRecords: lazy(() => import('./system/SystemRecords.tsx')),
  systemRole: lazy(() => import('./system/SystemRole.tsx')),
  notesOperate: lazy(() => import('./notes/NotesOperate.tsx')),
  administrator: lazy(() => import('./platform/Administrator.tsx')),
  recordsFees: lazy(() => import('./records/RecordsFees.tsx')),
  recordsPolice: lazy(() => import('./records/RecordsPolice.tsx')),
  recordsCollect: lazy(() => import('./records/RecordsCollect.tsx')),
  recordsTable: lazy(() => import('./records/RecordsTable.tsx')),
  recordsRoom: lazy(() => import('./records/RecordsRoom.tsx')),
  recordsOwner: lazy(() => import('./records/RecordsOwner.tsx')),
  inRoomRecord: lazy(() => import('./notes/InRoomRecord.tsx')),
  systemFees: lazy(() => import('./system/SystemFees.tsx')),
  recordsArea: lazy(() => import('./records/RecordsArea.tsx')),
  belongs: lazy(() => import('./platform/Belongs.tsx')),
  huifu: lazy(() => import('./platform/Huifu.tsx')),
  ...CONTROL_PAGES,
  ...BILLING_PAGES,
};

export function pageFor(routeKey: string): Page {
  return PAGES[routeKey] ?? Placeholder;
}

/** route keys that have a dedicated page (the rest render the placeholder) */
export const BUILT_PAGES = Object.keys(PAGES);
