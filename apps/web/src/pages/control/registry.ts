// The pages of the control, records, warning, archive and task menus built on the device side
// (route key → lazily loaded page), spread into pages/index.ts.
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

type Page = LazyExoticComponent<ComponentType>;

/** A named export of a page module as a lazy page. */
const named = <M extends Record<string, unknown>>(load: () => Promise<M>, name: keyof M): Page =>
  lazy(async () => ({ default: (await load())[name] as ComponentType }));

export const CONTROL_PAGES: Record<string, Page> = {
  // 控制管理
  casualCopy: lazy(() => import('./CasualCopy.tsx')),
  longRange: lazy(() => import('./LongRange.tsx')),
  peopleCasualCopy: lazy(() => import('./PeopleCasualCopy.tsx')),
  timeChangeControl: lazy(() => import('./TimeChangeControl.tsx')),
  keepElectric: named(() => import('./Keep.tsx'), 'KeepElectric'),
  keepWater: named(() => import('./Keep.tsx'), 'KeepWater'),
  constant: named(() => import('./MeterParams.tsx'), 'Constant'),
  advConfig: named(() => import('./MeterParams.tsx'), 'AdvConfig'),
  // 记录查询
  notesControl: lazy(() => import('../notes/NotesControl.tsx')),
  notesCopy: named(() => import('../notes/ReadingLog.tsx'), 'NotesCopy'),
  rgNotesCopy: named(() => import('../notes/ReadingLog.tsx'), 'RgNotesCopy'),
  notesConfig: lazy(() => import('../notes/NotesConfig.tsx')),
  notesKeepElectric: named(() => import('../notes/NotesKeep.tsx'), 'NotesKeepElectric'),
  notesKeepWater: named(() => import('../notes/NotesKeep.tsx'), 'NotesKeepWater'),
  notesPower: lazy(() => import('../notes/NotesPower.tsx')),
  // 数据预警
  warnElectricOff: named(() => import('../warn/Warnings.tsx'), 'WarnElectricOff'),
  warnWaterOff: named(() => import('../warn/Warnings.tsx'), 'WarnWaterOff'),
  warnElectricError: named(() => import('../warn/Warnings.tsx'), 'WarnElectricError'),
  warnWaterValveError: named(() => import('../warn/Warnings.tsx'), 'WarnWaterValveError'),
  warnElectricRateError: named(() => import('../warn/Warnings.tsx'), 'WarnElectricRateError'),
  warnCopyReadError: named(() => import('../warn/Warnings.tsx'), 'WarnCopyReadError'),
  deviceNoRead: lazy(() => import('../warn/DeviceNoRead.tsx')),
  // 数据归档, 任务管理
  copyLog: lazy(() => import('../archive/CopyLog.tsx')),
  deviceReportLog: lazy(() => import('../archive/DeviceReportLog.tsx')),
  task: lazy(() => import('../task/Task.tsx')),
};
