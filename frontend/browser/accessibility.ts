import { readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';

/** Where page screenshots are written (named in the README); ignored by git, since every run rewrites them. */
export const SCREENSHOTS_DIR = fileURLToPath(new URL('../../test-results/screenshots/pages/', import.meta.url));

/** The two widths every page is checked at: a phone and a laptop. */
export const CHECKED_WIDTHS = [375, 1280] as const;

const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

// axe-core as @axe-core/playwright ships it. The source is injected once per page load and run directly:
// AxeBuilder injects it again on every analyze and finishes each run in a blank page, about 2 s a run on the
// test machines against 0.3 s this way, for the same rules and results.
let axeSource: string | undefined;
function loadAxeSource(): string {
  if (axeSource === undefined) {
    const fromAxePlaywright = createRequire(createRequire(import.meta.url).resolve('@axe-core/playwright'));
    axeSource = readFileSync(fromAxePlaywright.resolve('axe-core/axe.min.js'), 'utf8');
  }
  return axeSource;
}

interface AxeViolation {
  id: string;
  impact?: string | null;
  nodes: Array<{ target: unknown[] }>;
}

/** The serious and critical axe-core violations on the page (WCAG 2.x A and AA rules), one line each. */
export async function seriousViolations(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in globalThis))) await page.evaluate(loadAxeSource());
  // Only violations are collected: gathering passes and incomplete results costs most of a run's time.
  const violations = await page.evaluate(async (tags) => {
    const axe = (
      globalThis as unknown as {
        axe: { run(context: unknown, options: unknown): Promise<{ violations: AxeViolation[] }> };
      }
    ).axe;
    const results = await axe.run((globalThis as unknown as { document: unknown }).document, {
      runOnly: { type: 'tag', values: tags },
      resultTypes: ['violations'],
    });
    return results.violations.map((violation) => ({
      id: violation.id,
      impact: violation.impact ?? null,
      targets: violation.nodes.map((node) => node.target.map(String).join(' ')),
    }));
  }, WCAG_TAGS);
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id} (${violation.impact}): ${violation.targets.join(', ')}`);
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

/** Visible buttons, links and checkbox labels smaller than 44 × 44 CSS px (the tap target size). */
export async function smallTapTargets(page: Page): Promise<string[]> {
  // Runs in the page; typed loosely because the Node program that checks this file has no DOM library.
  return page.evaluate(() => {
    interface Box {
      width: number;
      height: number;
      bottom: number;
    }
    interface Element {
      tagName: string;
      textContent: string | null;
      getBoundingClientRect(): Box;
    }
    const doc = (globalThis as unknown as { document: { querySelectorAll(selector: string): Iterable<Element> } })
      .document;
    const view = globalThis as unknown as { getComputedStyle(element: Element): { visibility: string } };
    return [...doc.querySelectorAll('button, a, label:has(input[type="checkbox"])')]
      .filter((element) => {
        const box = element.getBoundingClientRect();
        return box.bottom > 0 && box.width > 0 && view.getComputedStyle(element).visibility !== 'hidden';
      })
      .filter((element) => {
        const box = element.getBoundingClientRect();
        return box.width < 44 || box.height < 44;
      })
      .map((element) => {
        const box = element.getBoundingClientRect();
        return `${element.tagName.toLowerCase()} "${element.textContent?.trim() ?? ''}" ${Math.round(box.width)}×${Math.round(box.height)}`;
      });
  });
}

/**
 * Checks the page at each width (axe: no serious or critical violation; no sideways scrolling; tap targets of
 * 44 px) and writes
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
      for (const small of await smallTapTargets(page))
        problems.push(`${name} at ${width}px: small tap target ${small}`);
      // JPEG: much faster to encode than PNG for a full page.
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
