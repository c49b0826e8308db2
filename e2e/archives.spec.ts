// The archive pages end to end against the real server (demo seed), as demo/demo123:
// - /recordsRoom: a room is created on a floor of the demo park → found by name → renamed → deleted
//   (Popconfirm 确定) → the search no longer finds it;
// - /recordsOwner: an owner (mobile, 18-digit ID) is created → searched → edited → exported (the .xlsx,
//   read with ExcelJS, has the header row and exactly the owner the list shows; the unfiltered export
//   has as many rows as the list's total) → deleted;
// - /recordsTable: an electric meter with a unique 12-digit address in demo room 1-101 → searched by
//   address → renamed → deleted;
// - /recordsFees: a flat charging scheme with a unit price → searched → renamed → deleted.
import ExcelJS from 'exceljs';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { apiCall, apiToken, loginAt, toast } from './helpers.ts';

test.describe.configure({ mode: 'serial' });
test.slow();

const stamp = String(Date.now());
const tail = (n: number) => stamp.slice(-n);

// a test that failed half-way leaves no room of its own behind for the specs after it (a long room name
// widens /energy's table; pages.spec checks its columns at 1440×900)
test.afterAll(async ({ request }) => {
  const token = await apiToken(request);
  const mine = `E2E房${tail(6)}`;
  const left = await apiCall<{ data: { roomId: number; roomName: string }[] }>(request, token, 'GET', `/yewu/api/RoomInfo/GetEnergyRoom?index=1&size=50&roomName=${encodeURIComponent(mine)}`);
  for (const r of left.data.filter((x) => x.roomName.startsWith(mine))) await request.delete(`/yewu/api/RoomInfo/Detail/${r.roomId}`, { headers: { Authorization: token } });
});

/** The ProTable query form. */
const queryForm = (page: Page) => page.locator(':is(.ant-pro-query-filter, .light-table-search)').first();

/** Search the ProTable by one labelled text field (the other fields as they are). */
async function search(page: Page, label: string, value: string) {
  const form = queryForm(page);
  await form.getByLabel(label, { exact: true }).fill(value);
  // wait for the list answer to this search (a query parameter equal to the value: not a reload still on its
  // way with the previous value, which may hold this one — 'X改' after 'X'), so an empty table afterwards is the
  // search's, not the previous one
  const listed = page.waitForResponse((r) => {
    const url = new URL(r.url());
    return r.request().method() === 'GET' && url.searchParams.has('index') && [...url.searchParams.values()].includes(value);
  });
  await form.getByRole('button', { name: /查\s*询/ }).click();
  expect((await listed).ok()).toBe(true);
}

const rows = (page: Page) => page.locator(':is(.ant-pro-table, .light-table) .ant-table-tbody tr.ant-table-row');
const row = (page: Page, text: string) => rows(page).filter({ hasText: text });

/** The open create/edit modal (by its title). */
function modal(page: Page, title: string): Locator {
  return page.getByRole('dialog').filter({ has: page.locator('.ant-modal-title', { hasText: title }) });
}

async function save(dialog: Locator) {
  await dialog.getByRole('button', { name: /保\s*存/ }).click();
}

/** 新增… opens its create modal: the modal. */
async function openNew(page: Page, title: string): Promise<Locator> {
  await page.getByRole('button', { name: title }).click();
  const dialog = modal(page, title);
  await expect(dialog).toBeVisible();
  return dialog;
}

/** 保存 in the create modal: 新增成功 and the modal closes. */
async function saveNew(page: Page, dialog: Locator) {
  await save(dialog);
  await expect(toast(page, '新增成功')).toBeVisible();
  await expect(dialog).toBeHidden();
}

/** 编辑 in the row opens the `title` modal (`shows`: what it must show), sets `label` to `value`: 保存成功, the modal closes. */
async function editRow(page: Page, r: Locator, title: string, shows: (edit: Locator) => Promise<void>, label: string, value: string) {
  await r.getByText('编辑', { exact: true }).click();
  const edit = modal(page, title);
  await shows(edit);
  await edit.getByLabel(label, { exact: true }).fill(value);
  await save(edit);
  await expect(toast(page, '保存成功')).toBeVisible();
  await expect(edit).toBeHidden();
}

/** 删除 in the row, then 确定 in the Popconfirm. */
async function deleteRow(page: Page, r: Locator, confirmTitle: string) {
  await r.getByText('删除', { exact: true }).click();
  const pop = page.locator('.ant-popover').filter({ hasText: confirmTitle });
  await expect(pop).toBeVisible();
  await pop.getByRole('button', { name: /确\s*定/ }).click();
  await expect(toast(page, '删除成功')).toBeVisible();
}

/** Open an antd Select / TreeSelect in the dialog by its placeholder. */
async function openPicker(dialog: Locator, placeholder: string) {
  await dialog.locator('.ant-select').filter({ hasText: placeholder }).click();
}

/** The open dropdown (the last one rendered that is visible). */
const dropdown = (page: Page) => page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)').last();

test('/recordsRoom: create a room on a floor → search → rename → delete → gone', async ({ page }) => {
  const name = `E2E房${tail(6)}`;
  const renamed = `${name}改`;
  await loginAt(page, '/recordsRoom');
  await expect(page.getByText('物业列表')).toBeVisible();

  const dialog = await openNew(page, '新增物业');
  await dialog.getByLabel('物业名称', { exact: true }).fill(name);
  await openPicker(dialog, '请选择所属区域（楼层）');
  // the tree opens fully expanded: the first 1层 is 阳光园区/1号楼/1层
  await dropdown(page).locator('.ant-select-tree-node-content-wrapper[title="1层"]').first().click();
  await saveNew(page, dialog);

  await search(page, '物业名称', name);
  await expect(rows(page)).toHaveCount(1);
  const created = row(page, name);
  await expect(created).toContainText('阳光园区/1号楼/1层');
  await expect(created).toContainText('空置');

  await editRow(page, created, '编辑物业', async (edit) => {
    await expect(edit.getByLabel('物业名称', { exact: true })).toHaveValue(name);
  }, '物业名称', renamed);

  await search(page, '物业名称', renamed);
  await expect(rows(page)).toHaveCount(1);
  await deleteRow(page, row(page, renamed), '确定删除该物业吗？');
  await expect(rows(page)).toHaveCount(0);
  await search(page, '物业名称', name);
  await expect(page.locator(':is(.ant-pro-table, .light-table) .ant-empty')).toBeVisible();
  await expect(rows(page)).toHaveCount(0);
});

/** The rows of the first sheet of a downloaded .xlsx, keyed by the header row. */
async function readXlsx(path: string): Promise<{ header: string[]; rows: Record<string, string>[] }> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile(path);
  const ws = wb.worksheets[0];
  const header = (ws.getRow(1).values as unknown[]).slice(1).map(String);
  const out: Record<string, string>[] = [];
  ws.eachRow((r, n) => {
    if (n === 1) return;
    out.push(Object.fromEntries(header.map((h, i) => [h, String(r.getCell(i + 1).text ?? '')])));
  });
  return { header, rows: out };
}

async function exportOwners(page: Page) {
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: /导\s*出/ }).click()]);
  expect(download.suggestedFilename()).toBe('业主档案.xlsx');
  return readXlsx((await download.path())!);
}

/** The list's total from the pagination (第 1-10 条/总共 N 条). */
async function listTotal(page: Page): Promise<number> {
  const text = await page.locator(':is(.ant-pro-table, .light-table) .ant-pagination-total-text').innerText();
  const m = /(\d+)\s*条\s*$/.exec(text.trim());
  expect(m, `a total in "${text}"`).toBeTruthy();
  return Number(m![1]);
}

test('/recordsOwner: create → search → edit → export (.xlsx matches the list) → delete', async ({ page }) => {
  const name = `测试业主${tail(5)}`;
  const renamed = `${name}乙`;
  const phone = `139${tail(8)}`;
  const idNumber = '11010519491231002X';
  await loginAt(page, '/recordsOwner');
  await expect(page.getByText('业主列表')).toBeVisible();

  // the unfiltered export holds as many owners as the list's total
  await expect(rows(page).first()).toBeVisible();
  const total = await listTotal(page);
  const all = await exportOwners(page);
  expect(all.header).toEqual([
    '业主编号', '业主姓名', '手机号码', '身份证号', '性别', '房间', '区域位置', '状态', '入住时间', '邮箱', '备注', '创建时间',
  ]);
  expect(all.rows).toHaveLength(total);

  const dialog = await openNew(page, '新增业主');
  await dialog.getByLabel('业主姓名', { exact: true }).fill(name);
  await dialog.getByLabel('手机号码', { exact: true }).fill(phone);
  await dialog.getByLabel('身份证号', { exact: true }).fill(idNumber);
  await saveNew(page, dialog);

  await search(page, '业主姓名', name);
  await expect(rows(page)).toHaveCount(1);
  await expect(row(page, name)).toContainText(phone);
  await expect(row(page, name)).toContainText('未入住');

  await editRow(page, row(page, name), '编辑业主', async (edit) => {
    await expect(edit.getByLabel('业主姓名', { exact: true })).toHaveValue(name);
    await expect(edit.getByLabel('身份证号', { exact: true })).toHaveValue(idNumber);
  }, '业主姓名', renamed);

  await search(page, '业主姓名', renamed);
  await expect(rows(page)).toHaveCount(1);
  await expect(row(page, renamed)).toContainText(phone);

  // the export takes the list's filter: exactly the searched owner
  const one = await exportOwners(page);
  expect(one.rows).toHaveLength(1);
  expect(one.rows[0]).toMatchObject({ 业主姓名: renamed, 手机号码: phone, 身份证号: idNumber, 状态: '未入住' });

  await deleteRow(page, row(page, renamed), '确定删除该业主吗？');
  await expect(rows(page)).toHaveCount(0);
});

test('/recordsTable: create an electric meter in room 1-101 → search by address → rename → delete', async ({ page }) => {
  const address = `99${tail(10)}`;
  const name = `E2E电表${tail(4)}`;
  const renamed = `${name}改`;
  await loginAt(page, '/recordsTable');
  await expect(page.getByText('表具列表')).toBeVisible();

  const dialog = await openNew(page, '新增表具');
  await dialog.getByLabel('表具名称', { exact: true }).fill(name);
  // 表具类别 defaults to 电表; take the first electric plan the company may use
  await expect(dialog.locator('.ant-select').filter({ hasText: '电表' }).first()).toBeVisible();
  await openPicker(dialog, '请选择表具方案');
  await dropdown(page).locator('.ant-select-item-option').first().click();
  await dialog.getByLabel('表地址', { exact: true }).fill(address);
  await openPicker(dialog, '请选择房间');
  await page.keyboard.type('1-101');
  await dropdown(page).locator('.ant-select-tree-node-content-wrapper[title="1-101"]').first().click();
  await saveNew(page, dialog);

  await search(page, '表地址', address);
  await expect(rows(page)).toHaveCount(1);
  await expect(row(page, address)).toContainText(name);
  await expect(row(page, address)).toContainText('1-101');

  await editRow(page, row(page, address), '编辑表具', async (edit) => {
    await expect(edit.getByLabel('表地址', { exact: true })).toHaveValue(address);
  }, '表具名称', renamed);
  await expect(row(page, address)).toContainText(renamed);

  await deleteRow(page, row(page, address), '确定删除该表具吗？');
  await expect(rows(page)).toHaveCount(0);
  await search(page, '表地址', address);
  await expect(page.locator(':is(.ant-pro-table, .light-table) .ant-empty')).toBeVisible();
});

test('/recordsFees: create a flat scheme with a unit price → search → rename → delete', async ({ page }) => {
  const name = `E2E统一电价${tail(6)}`;
  const renamed = `${name}改`;
  await loginAt(page, '/recordsFees');
  // the page's own 收费方案 tab (the header's page tab has the same name)
  await expect(page.getByRole('tab', { name: '收费方案' }).last()).toHaveAttribute('aria-selected', 'true');

  const dialog = await openNew(page, '新增收费方案');
  await dialog.getByLabel('方案名称', { exact: true }).fill(name);
  await dialog.getByRole('button', { name: /添加价格版本/ }).click();
  await dialog.getByPlaceholder('元/kWh，最多 4 位小数').fill('0.6800');
  await saveNew(page, dialog);

  await search(page, '方案名称', name);
  await expect(rows(page)).toHaveCount(1);
  await expect(row(page, name)).toContainText('0.68');

  await editRow(page, row(page, name), '编辑收费方案', async (edit) => {
    await expect(edit.getByLabel('方案名称', { exact: true })).toHaveValue(name);
    await expect(edit.getByPlaceholder('元/kWh，最多 4 位小数')).toHaveValue(/^0\.68/);
  }, '方案名称', renamed);

  await search(page, '方案名称', renamed);
  await expect(rows(page)).toHaveCount(1);
  await deleteRow(page, row(page, renamed), '确定删除该收费方案吗？');
  await expect(rows(page)).toHaveCount(0);
  await search(page, '方案名称', name);
  await expect(page.locator(':is(.ant-pro-table, .light-table) .ant-empty')).toBeVisible();
});
