import { z } from 'zod';
import { endpoint } from '../endpoint.ts';
import { optBeijingTime, optText, PageQuery, wireTime, wireTimeOrNull, coded } from '../query.ts';
import { num } from '../input.ts';

// 系统 (/yonghu/api): the audit log (/notesOperate) and the scheduler's timed jobs (/task).

export const AuditLogQuery = PageQuery.extend({
  username: optText(),
  action: optText(),
  startTime: optBeijingTime(),
  endTime: optBeijingTime(),
  searchCompanyID: num(z.number().int().positive()).optional(),
});

export const AuditLogRow = z.object({
  id: z.number(),
  createdAt: wireTime,
  username: z.string(),
  method: z.string(),
  path: z.string(),
  action: z.string(),
  target: z.string(),
  ip: z.string(),
  status: z.number(),
  code: z.string(),
});

export const JOB_STATES = ['ok', 'failed', 'overdue'] as const;

/** A timed job of the server as the scheduler recorded it (modules/scheduler). */
export const ScheduledJobRow = z.object({
  name: z.string(),
  label: z.string(),
  ...coded('role', z.string()),
  everyMs: z.number(),
  lastStartedAt: wireTimeOrNull,
  lastFinishedAt: wireTimeOrNull,
  lastDurationMs: z.number().nullable(),
  lastOk: z.boolean().nullable(),
  lastError: z.string(),
  lastErrorAt: wireTimeOrNull,
  nextRunAt: wireTimeOrNull,
  runs: z.number(),
  failures: z.number(),
  host: z.string(),
  ...coded('state', z.enum(JOB_STATES)),
});

export const systemEndpoints = {
  auditLog: endpoint({
    method: 'GET', path: '/yonghu/api/admin/log/list', summary: '操作日志', perm: { routes: ['notesOperate'] }, query: AuditLogQuery,
    response: AuditLogRow, paged: true, tags: ['操作日志'],
  }),
  jobs: endpoint({
    method: 'GET', path: '/yonghu/api/system/jobs', summary: '定时任务运行情况', perm: { routes: ['task'], access: 0 },
    response: z.array(ScheduledJobRow), tags: ['任务管理'],
  }),
};

export type AuditLog = z.output<typeof AuditLogRow>;
export type ScheduledJob = z.output<typeof ScheduledJobRow>;
