import type { Page } from 'playwright-core';

/** One layout problem found on a page: a table cut off inside its card, or the page wider than the window. */
export interface LayoutProblem {
  kind: 'clipped-table' | 'hidden-scroll' | 'page-overflow';
  detail: string;
}

/**
 * Looks at every visible table: it must fit its card, or scroll horizontally inside it with a
 * scrollbar the user can see (`requireFit`: no horizontal scroll at all). The page itself must not be
 * wider than the window. Runs in the page.
 */
export async function layoutProblems(page: Page, requireFit: boolean): Promise<LayoutProblem[]> {
  return page.evaluate((fit) => {
    const problems: { kind: 'clipped-table' | 'hidden-scroll' | 'page-overflow'; detail: string }[] = [];
    const doc = document.documentElement;
    if (doc.scrollWidth > window.innerWidth + 1)
      problems.push({ kind: 'page-overflow', detail: `page ${doc.scrollWidth} px wide in a ${window.innerWidth} px window` });
    for (const wrapper of Array.from(document.querySelectorAll<HTMLElement>('.ant-table-wrapper'))) {
      if (!wrapper.offsetParent) continue; // hidden (inactive tab, closed dialog)
      const table = wrapper.querySelector('table');
      if (!table) continue;
      const heading = wrapper.closest('.ant-card')?.querySelector('.ant-card-head-title')?.textContent ?? 'table';
      const columns = Array.from(table.querySelectorAll('thead th'))
        .map((th) => th.textContent?.trim())
        .filter(Boolean);
      const scroller = wrapper.querySelector<HTMLElement>('.ant-table-content, .ant-table-body') ?? wrapper;
      const scrolls = scroller.scrollWidth > scroller.clientWidth + 1;
      const overflowX = getComputedStyle(scroller).overflowX;
      // The visible box: the nearest ancestor that clips (the card's body, the page content).
      let box = wrapper.getBoundingClientRect();
      for (let el: HTMLElement | null = wrapper.parentElement; el && el !== document.body; el = el.parentElement) {
        const style = getComputedStyle(el);
        if (style.overflowX !== 'visible') {
          const r = el.getBoundingClientRect();
          box = new DOMRect(Math.max(box.left, r.left), box.top, Math.min(box.right, r.right) - Math.max(box.left, r.left), box.height);
        }
      }
      const right = Math.min(table.getBoundingClientRect().right, scroller.getBoundingClientRect().right);
      if (!scrolls && right > box.right + 1)
        problems.push({ kind: 'clipped-table', detail: `${heading}: ${Math.round(right - box.right)} px cut off (${columns.join(', ')})` });
      if (scrolls) {
        const scrollable = overflowX === 'auto' || overflowX === 'scroll';
        const barVisible = scroller.offsetHeight - scroller.clientHeight > 3;
        if (!scrollable)
          problems.push({ kind: 'clipped-table', detail: `${heading}: wider than its card and not scrollable (${columns.join(', ')})` });
        else if (fit || !barVisible)
          problems.push({
            kind: 'hidden-scroll',
            detail: `${heading}: scrolls ${scroller.scrollWidth - scroller.clientWidth} px${barVisible ? '' : ' without a visible scrollbar'} (${columns.join(', ')})`,
          });
      }
    }
    return problems;
  }, requireFit);
}

/** Waits until the page has no loading skeleton or spinner left (the data has arrived or failed). */
export async function settled(page: Page): Promise<boolean> {
  const deadline = Date.now() + 60_000;
  let done = false;
  while (Date.now() < deadline) {
    const busy = await page.evaluate(
      () => document.querySelectorAll('.ant-skeleton, .ant-spin-spinning, [aria-busy="true"], .vigil-progress').length,
    );
    if (busy === 0) {
      done = true;
      break;
    }
    await page.waitForTimeout(100);
  }
  // Layout after the last data (charts measure their container, tables their columns).
  await page.waitForTimeout(250);
  return done;
}
