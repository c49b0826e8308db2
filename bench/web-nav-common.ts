// What bench/web-nav.ts and bench/web-nav-profile.ts share: the 7 list pages they click, and the clock
// of one click (mousedown → first row of that page, timed inside the page).
import type { Locator, Page } from '@playwright/test';

/** 7 list pages of the demo company, each with rows in the demo seed; the first is "the first list page". */
export const PAGES = [
  { key: 'systemRecords', group: '系统管理', title: '账号管理' },
  { key: 'recordsRoom', group: '档案管理', title: '房间档案' },
  { key: 'recordsOwner', group: '档案管理', title: '业主档案' },
  { key: 'recordsTable', group: '档案管理', title: '表具档案' },
  { key: 'recordsFees', group: '档案管理', title: '收费方案' },
  { key: 'systemRole', group: '系统管理', title: '角色管理' },
  { key: 'notesOperate', group: '记录查询', title: '操作日志' },
];
export type NavPage = (typeof PAGES)[number];

declare global {
  interface Window {
    __navT0?: number;
    __rowsAt?: number;
  }
}

/** The page's item in the side menu, its group opened first when it is folded. */
export async function menuItem(page: Page, p: NavPage): Promise<Locator> {
  const menu = page.locator('.shell-sider');
  const item = menu.getByRole('menuitem', { name: p.title, exact: true });
  if (!(await item.isVisible())) {
    await menu.getByRole('menuitem', { name: p.group }).click();
    await item.waitFor({ state: 'visible' });
    await page.waitForTimeout(400); // the submenu's opening animation
  }
  return item;
}

/**
 * Arms the clock for `p`: window.__rowsAt is set when the first row of its page shows (the bench's init
 * script sets __navT0 at the mousedown). `reset` runs first inside the page.
 */
export async function armRowsClock(page: Page, p: NavPage, reset = ''): Promise<void> {
  // a string, not a function: tsx would wrap named inner functions in a helper the page does not have
  await page.evaluate(`(() => {
    window.__navT0 = 0;
    window.__rowsAt = 0;
    ${reset}
    const sel = '.shell-page[data-page="${p.key}"]:not([hidden]) .ant-table-row';
    const obs = new MutationObserver(() => {
      if (document.querySelector(sel)) {
        window.__rowsAt = performance.now();
        obs.disconnect();
      }
    });
    obs.observe(document.body, { childList: true, subtree: true, attributes: true, attributeFilter: ['hidden'] });
  })()`);
}

/** After the click: waits for the rows, returns mousedown → first row in ms. */
export async function rowsAfterClick(page: Page): Promise<number> {
  await page.waitForFunction(() => (window.__rowsAt ?? 0) > 0 && (window.__navT0 ?? 0) > 0, null, { timeout: 60_000 });
  return page.evaluate(() => window.__rowsAt! - window.__navT0!);
}
