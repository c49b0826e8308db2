import { z } from 'zod';
import { endpoint } from '../endpoint.ts';
import { CompanyQuery, PageQuery, wireTime } from '../query.ts';

// Excel import (issue 15 item 9, issue 14 item 12): for each kind a .xlsx template, a preview that
// validates every row with the forms' rules, and an all-or-nothing commit that is idempotent per file.
// Migrating from another system goes in this order: areas → rooms → owners → collectors → meters →
// opening balances (docs/OPERATIONS.md).

const tags = ['导入'];

export const IMPORT_KINDS = ['area', 'room', 'owner', 'collector', 'meter', 'opening'] as const;
export type ImportKind = (typeof IMPORT_KINDS)[number];

export const IMPORT_KIND_LABELS: Record<ImportKind, string> = {
  area: '区域',
  room: '房间',
  owner: '业主',
  collector: '采集器',
  meter: '表具',
  opening: '期初余额',
};

/**
 * Who may import each kind: the same as the page's add button. The declarations below admit any of
 * these pages; the service then checks the kind's own rule.
 */
export const IMPORT_PERMS: Record<ImportKind, { routes: string[]; op?: string }> = {
  area: { routes: ['recordsArea'] },
  room: { routes: ['recordsRoom'], op: 'room.basic' },
  owner: { routes: ['recordsOwner'], op: 'owner.basic' },
  collector: { routes: ['recordsCollect'], op: 'device.collectorAdd' },
  meter: { routes: ['recordsTable'], op: 'device.add' },
  opening: { routes: ['recordsOwner', 'energy', 'compre'], op: 'finance.prepay' },
};

const anyImportPage = { routes: [...new Set(Object.values(IMPORT_PERMS).flatMap((p) => p.routes))] };

/** the largest file accepted (bytes, before base64) */
export const IMPORT_MAX_BYTES = 3 * 1024 * 1024;
/** the most data rows one file may carry */
export const IMPORT_MAX_ROWS = 20000;

export const ImportKindParams = z.object({
  kind: z.enum(IMPORT_KINDS, { error: '导入类别无效，应为 区域、房间、业主、采集器、表具 或 期初余额' }),
});

/** The chosen .xlsx file, base64-encoded (the server registers no multipart parser). */
export const ImportFileBody = z.object({
  fileName: z.string().trim().min(1, '请选择要导入的文件').max(200, '文件名最多 200 个字'),
  content: z
    .string()
    .min(1, '请选择要导入的文件')
    .max(Math.ceil((IMPORT_MAX_BYTES * 4) / 3) + 4, '文件过大：最大 3 MB，请拆分后分批导入')
    .regex(/^[A-Za-z0-9+/]+={0,2}$/, '文件内容应为 base64 编码'),
});

/** One problem with one cell (or a whole row: column ''). Rows are numbered as Excel shows them. */
export const ImportIssue = z.object({
  row: z.number(),
  column: z.string(),
  message: z.string(),
});

/** The answer of a preview: what a commit would do with this file. */
export const ImportPreviewRow = z.object({
  kind: z.enum(IMPORT_KINDS),
  fileName: z.string(),
  /** sha-256 of the file: the same file is imported once */
  fileHash: z.string(),
  /** the template's headers, in order */
  columns: z.array(z.string()),
  /** data rows read (the example row and blank rows not counted) */
  total: z.number(),
  okCount: z.number(),
  errorCount: z.number(),
  /** every problem, row by row (a row may have several) */
  errors: z.array(ImportIssue),
  /** the first rows as read, for the preview table (header → text) */
  rows: z.array(z.object({ row: z.number(), values: z.record(z.string(), z.string()), ok: z.boolean() })),
  /** this very file was imported before: when and by whom */
  alreadyImported: z.object({ at: wireTime, operatorName: z.string(), rows: z.number() }).nullable(),
});

export const ImportResultRow = z.object({
  batchId: z.number(),
  /** rows written now (0 when the file had been imported before) */
  imported: z.number(),
  /** the file had been imported before: nothing was written */
  duplicate: z.boolean(),
  message: z.string(),
});

export const ImportLogQuery = PageQuery.extend(CompanyQuery.shape).extend({
  kind: z.preprocess((v) => (v === '' ? undefined : v), z.enum(IMPORT_KINDS).optional()),
});

export const ImportLogRow = z.object({
  id: z.number(),
  kind: z.string(),
  kindName: z.string(),
  fileName: z.string(),
  fileHash: z.string(),
  rows: z.number(),
  operatorName: z.string(),
  createdAt: wireTime,
});

const I = '/yewu/api/import';

export const importEndpoints = {
  template: endpoint({
    method: 'GET', path: `${I}/:kind/template`, summary: '下载导入模板（.xlsx）', perm: anyImportPage, params: ImportKindParams, query: CompanyQuery,
    file: '导入模板', tags,
  }),
  preview: endpoint({
    method: 'POST', path: `${I}/:kind/preview`, summary: '导入预览（逐行校验）', perm: anyImportPage, action: false, params: ImportKindParams,
    query: CompanyQuery, body: ImportFileBody, response: ImportPreviewRow, tags,
  }),
  commit: endpoint({
    method: 'POST', path: `${I}/:kind/commit`, summary: '确认导入', perm: anyImportPage, params: ImportKindParams, query: CompanyQuery,
    body: ImportFileBody, response: ImportResultRow, tags,
  }),
  log: endpoint({ method: 'GET', path: `${I}/log`, summary: '导入记录', perm: anyImportPage, query: ImportLogQuery, response: ImportLogRow, paged: true, tags }),
};

export type ImportPreview = z.output<typeof ImportPreviewRow>;
export type ImportResult = z.output<typeof ImportResultRow>;
export type ImportIssueRow = z.output<typeof ImportIssue>;
