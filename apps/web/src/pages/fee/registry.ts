// The billing screens (fee, notes, control, report pages of billing), each loaded lazily. Spread into
// the page registry (pages/index.ts).
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

type Page = LazyExoticComponent<ComponentType>;

export const BILLING_PAGES: Record<string, Page> = {
  energy: lazy(() => import('./Energy.tsx')),
  billprint: lazy(() => import('./BillPrint.tsx')),
  copyread: lazy(() => import('./CopyRead.tsx')),
  financerecode: lazy(() => import('./FinanceRecode.tsx')),
  notesPay: lazy(() => import('../notes/NotesPay.tsx')),
  compre: lazy(() => import('./Compre.tsx')),
  energyTotal: lazy(() => import('./EnergyTotal.tsx')),
  compreProperty: lazy(() => import('./CompreProperty.tsx')),
  comprePublic: lazy(() => import('./ComprePublic.tsx')),
  noteswithdraw: lazy(() => import('../notes/NotesWithdraw.tsx')),
  notesElectricity: lazy(() => import('../notes/NotesElectricity.tsx')),
  notesMessage: lazy(() => import('../notes/NotesMessage.tsx')),
  timeSubsidy: lazy(() => import('../control/TimeSubsidy.tsx')),
  accountCancel: lazy(() => import('../control/AccountCancel.tsx')),
  accountOff: lazy(() => import('../control/AccountOff.tsx')),
  reportCheck: lazy(() => import('../report/ReportCheck.tsx')),
  reportFees: lazy(() => import('../report/ReportFees.tsx')),
  reportDeduct: lazy(() => import('../report/ReportDeduct.tsx')),
  reportBank: lazy(() => import('../report/ReportBank.tsx')),
};
