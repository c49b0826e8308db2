// The billing screens (fee, notes, control, report pages of billing), each loaded lazily. Spread into
// the page registry (pages/index.ts).
import { lazyPage, type Page } from '../lazyPage.ts';

export const BILLING_PAGES: Record<string, Page> = {
  energy: lazyPage(() => import('./Energy.tsx')),
  billprint: lazyPage(() => import('./BillPrint.tsx')),
  dailyClose: lazyPage(() => import('./DailyClose.tsx')),
  copyread: lazyPage(() => import('./CopyRead.tsx')),
  financerecode: lazyPage(() => import('./FinanceRecode.tsx')),
  notesPay: lazyPage(() => import('../notes/NotesPay.tsx')),
  compre: lazyPage(() => import('./Compre.tsx')),
  energyTotal: lazyPage(() => import('./EnergyTotal.tsx')),
  compreProperty: lazyPage(() => import('./CompreProperty.tsx')),
  comprePublic: lazyPage(() => import('./ComprePublic.tsx')),
  noteswithdraw: lazyPage(() => import('../notes/NotesWithdraw.tsx')),
  notesElectricity: lazyPage(() => import('../notes/NotesElectricity.tsx')),
  notesMessage: lazyPage(() => import('../notes/NotesMessage.tsx')),
  timeSubsidy: lazyPage(() => import('../control/TimeSubsidy.tsx')),
  accountCancel: lazyPage(() => import('../control/AccountCancel.tsx')),
  accountOff: lazyPage(() => import('../control/AccountOff.tsx')),
  reportCheck: lazyPage(() => import('../report/ReportCheck.tsx')),
  reportFees: lazyPage(() => import('../report/ReportFees.tsx')),
  reportDeduct: lazyPage(() => import('../report/ReportDeduct.tsx')),
  reportBank: lazyPage(() => import('../report/ReportBank.tsx')),
};
