import type { Page } from 'playwright-core';

/**
 * Text a user cannot read: visible text whose colour is too close to the background it is drawn on
 * (WCAG contrast ratio under `MIN_RATIO`). The check behind "dark mode checked": a colour written
 * for the light theme (a dark text, a white card) shows up here as dark on dark, where a screenshot
 * would need someone to look. The ratio is WCAG's threshold for large text, on purpose lower than
 * body text's 4.5: it finds text that cannot be read, not shades to polish. Disabled controls and
 * placeholders are dimmed on purpose and are skipped; so is text over an image or a gradient (its
 * background is not one colour), and a symbol alone (a legend's dot). Runs in the page; answers at most `limit` problems, the worst first.
 */
export const MIN_RATIO = 3;

export interface ContrastProblem {
  text: string;
  where: string;
  ratio: number;
  colors: string;
}

export async function contrastProblems(page: Page, limit = 8): Promise<ContrastProblem[]> {
  return page.evaluate(
    ({ minRatio, max }) => {
      type Rgba = [number, number, number, number];
      const parse = (css: string): Rgba | undefined => {
        const m = /rgba?\(([^)]+)\)/.exec(css);
        if (!m) return undefined;
        const [r, g, b, a] = m[1]
          .split(/[\s,/]+/)
          .filter(Boolean)
          .map(Number);
        return [r, g, b, Number.isNaN(a) || a === undefined ? 1 : a];
      };
      const over = (top: Rgba, below: Rgba): Rgba => {
        const a = top[3];
        return [top[0] * a + below[0] * (1 - a), top[1] * a + below[1] * (1 - a), top[2] * a + below[2] * (1 - a), 1];
      };
      const luminance = ([r, g, b]: Rgba) => {
        const lin = (c: number) => {
          const s = c / 255;
          return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
        };
        return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
      };
      const ratio = (a: Rgba, b: Rgba) => {
        const [l1, l2] = [luminance(a), luminance(b)].sort((x, y) => y - x);
        return (l1 + 0.05) / (l2 + 0.05);
      };
      /** The colour behind an element: its own and its ancestors' backgrounds composited; undefined over an image. */
      const backgroundOf = (el: Element): Rgba | undefined => {
        const layers: Rgba[] = [];
        for (let e: Element | null = el; e; e = e.parentElement) {
          const style = getComputedStyle(e);
          if (style.backgroundImage !== 'none' && !style.backgroundImage.startsWith('url(')) return undefined;
          const bg = parse(style.backgroundColor);
          if (bg && bg[3] > 0) {
            layers.push(bg);
            if (bg[3] >= 1) break;
          }
        }
        let color: Rgba = [255, 255, 255, 1];
        for (const layer of layers.reverse()) color = over(layer, color);
        return color;
      };
      const dimmedOnPurpose = (el: Element) =>
        Boolean(
          el.closest(
            '[disabled], [aria-disabled="true"], [class*="-disabled"], .ant-skeleton, [aria-hidden="true"], [class*="placeholder"]',
          ),
        );
      const visible = (el: Element) => {
        const rect = el.getBoundingClientRect();
        if (rect.width < 1 || rect.height < 1) return false;
        const style = getComputedStyle(el);
        if (style.visibility !== 'visible') return false;
        let opacity = 1;
        for (let e: Element | null = el; e; e = e.parentElement) opacity *= Number(getComputedStyle(e).opacity);
        return opacity > 0.6;
      };
      const found: { text: string; where: string; ratio: number; colors: string }[] = [];
      const seen = new Set<Element>();
      const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const text = node.textContent?.trim();
        const el = node.parentElement;
        // Symbols alone (a legend's dot, an arrow) are marks, not text to read.
        if (!text || !/[\p{L}\p{N}]/u.test(text) || !el || seen.has(el)) continue;
        seen.add(el);
        if (dimmedOnPurpose(el) || !visible(el)) continue;
        const style = getComputedStyle(el);
        // SVG text is painted with fill; HTML text with color.
        const fg = parse(el instanceof SVGElement ? style.fill : style.color);
        const bg = backgroundOf(el);
        if (!fg || !bg) continue;
        const r = ratio(over(fg, bg), bg);
        if (r < minRatio) {
          const cls = typeof el.className === 'string' ? el.className.split(/\s+/).filter(Boolean).slice(0, 2).join('.') : '';
          found.push({
            text: text.slice(0, 40),
            where: `${el.tagName.toLowerCase()}${cls ? `.${cls}` : ''}`,
            ratio: Math.round(r * 100) / 100,
            colors: `${style.color} on ${bg.slice(0, 3).map(Math.round).join(',')}`,
          });
        }
      }
      return found.sort((a, b) => a.ratio - b.ratio).slice(0, max);
    },
    { minRatio: MIN_RATIO, max: limit },
  );
}
