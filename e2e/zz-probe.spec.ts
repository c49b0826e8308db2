import { test } from '@playwright/test';
import { login } from './helpers.ts';

async function rows(page: import('@playwright/test').Page) {
  return page.evaluate(() => [...document.querySelectorAll<HTMLElement>('.ant-table-wrapper')].filter((t) => t.offsetParent).reduce((n, t) => n + t.querySelectorAll('tbody tr.ant-table-row').length, 0));
}
test('probe', async ({ page }) => {
  test.setTimeout(600_000);
  await login(page);
  const out: string[] = [];
  for (const r of ['billprint', 'timeChangeControl', 'accountOff', 'rgNotesCopy', 'notesConfig', 'notesKeepElectric', 'notesKeepWater', 'notesElectricity', 'noteswithdraw', 'notesPower', 'reportCheck', 'reportFees', 'reportDeduct', 'reportBank', 'warnElectricOff', 'warnWaterOff', 'warnElectricError', 'warnWaterValveError', 'warnElectricRateError', 'warnCopyReadError', 'deviceNoRead', 'deviceReportLog', 'copyread', 'recordsRoom', 'systemFees']) {
    await page.goto('/' + r);
    let n = 0;
    for (let i = 0; i < 16 && n === 0; i++) { await page.waitForTimeout(500); n = await rows(page); }
    out.push(`${r}: ${n}`);
  }
  await login(page, { username: 'admin', password: 'admin123' });
  for (const r of ['huifu', 'noteswithdraw']) {
    await page.goto('/' + r);
    let n = 0;
    for (let i = 0; i < 16 && n === 0; i++) { await page.waitForTimeout(500); n = await rows(page); }
    out.push(`admin ${r}: ${n}`);
  }
  console.log(out.join('\n'));
});
