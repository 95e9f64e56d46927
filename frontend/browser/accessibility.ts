import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';

/** Where page screenshots are written (named in the README). */
export const SCREENSHOTS_DIR = fileURLToPath(new URL('../../docs/screenshots/', import.meta.url));

/** The two widths every page is checked at: a phone and a laptop. */
export const CHECKED_WIDTHS = [375, 1280] as const;

/** The serious and critical axe-core violations on the page (WCAG 2.x A and AA rules), one line each. */
export async function seriousViolations(page: Page): Promise<string[]> {
  // Only violations are collected: gathering passes and incomplete results costs most of a run's time.
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .options({ resultTypes: ['violations'] })
    .analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${violation.id} (${violation.impact}): ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
    );
}

/** True when the page scrolls sideways. */
export async function scrollsSideways(page: Page): Promise<boolean> {
  // Runs in the page; typed loosely because the Node program that checks this file has no DOM library.
  return page.evaluate(() => {
    const root = (
      globalThis as unknown as { document: { documentElement: { scrollWidth: number; clientWidth: number } } }
    ).document.documentElement;
    return root.scrollWidth > root.clientWidth;
  });
}

/**
 * Checks the page at each width (axe: no serious or critical violation; no sideways scrolling) and writes
 * `<name>-<width>.jpg` under {@link SCREENSHOTS_DIR}; the viewport is restored afterwards. Returns the problems.
 */
export async function checkPageAtWidths(page: Page, name: string): Promise<string[]> {
  const original = page.viewportSize() ?? { width: 1280, height: 800 };
  const problems: string[] = [];
  await mkdir(SCREENSHOTS_DIR, { recursive: true });
  try {
    for (const width of CHECKED_WIDTHS) {
      await page.setViewportSize({ width, height: width < 600 ? 740 : 800 });
      for (const violation of await seriousViolations(page)) problems.push(`${name} at ${width}px: ${violation}`);
      if (await scrollsSideways(page)) problems.push(`${name} at ${width}px: scrolls sideways`);
      // JPEG: much faster to encode than PNG for full pages, and small enough to keep in the repository.
      await page.screenshot({
        path: join(SCREENSHOTS_DIR, `${name}-${width}.jpg`),
        fullPage: true,
        type: 'jpeg',
        quality: 70,
      });
    }
  } finally {
    await page.setViewportSize(original);
  }
  return problems;
}
