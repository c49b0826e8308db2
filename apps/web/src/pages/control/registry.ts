// The pages of the control, records, warning, archive and task menus built on the device side
// (route key → lazily loaded page), spread into pages/index.ts.
import { lazyPage, namedPage, type Page } from '../lazyPage.ts';

export const CONTROL_PAGES: Record<string, Page> = {
  // 控制管理
  casualCopy: lazyPage(() => import('./CasualCopy.tsx')),
  longRange: lazyPage(() => import('./LongRange.tsx')),
  peopleCasualCopy: lazyPage(() => import('./PeopleCasualCopy.tsx')),
  timeChangeControl: lazyPage(() => import('./TimeChangeControl.tsx')),
  keepElectric: namedPage(() => import('./Keep.tsx'), 'KeepElectric'),
  keepWater: namedPage(() => import('./Keep.tsx'), 'KeepWater'),
  constant: namedPage(() => import('./MeterParams.tsx'), 'Constant'),
  advConfig: namedPage(() => import('./MeterParams.tsx'), 'AdvConfig'),
  // 记录查询
  notesControl: lazyPage(() => import('../notes/NotesControl.tsx')),
  notesCopy: namedPage(() => import('../notes/ReadingLog.tsx'), 'NotesCopy'),
  rgNotesCopy: namedPage(() => import('../notes/ReadingLog.tsx'), 'RgNotesCopy'),
  notesConfig: lazyPage(() => import('../notes/NotesConfig.tsx')),
  notesKeepElectric: namedPage(() => import('../notes/NotesKeep.tsx'), 'NotesKeepElectric'),
  notesKeepWater: namedPage(() => import('../notes/NotesKeep.tsx'), 'NotesKeepWater'),
  notesPower: lazyPage(() => import('../notes/NotesPower.tsx')),
  // 数据预警
  warnElectricOff: namedPage(() => import('../warn/Warnings.tsx'), 'WarnElectricOff'),
  warnWaterOff: namedPage(() => import('../warn/Warnings.tsx'), 'WarnWaterOff'),
  warnElectricError: namedPage(() => import('../warn/Warnings.tsx'), 'WarnElectricError'),
  warnWaterValveError: namedPage(() => import('../warn/Warnings.tsx'), 'WarnWaterValveError'),
  warnElectricRateError: namedPage(() => import('../warn/Warnings.tsx'), 'WarnElectricRateError'),
  warnCopyReadError: namedPage(() => import('../warn/Warnings.tsx'), 'WarnCopyReadError'),
  deviceNoRead: lazyPage(() => import('../warn/DeviceNoRead.tsx')),
  // 数据归档, 任务管理
  copyLog: lazyPage(() => import('../archive/CopyLog.tsx')),
  deviceReportLog: lazyPage(() => import('../archive/DeviceReportLog.tsx')),
  task: lazyPage(() => import('../task/Task.tsx')),
};
