import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

/** Debian's Chromium; no browser is ever downloaded. */
export const CHROMIUM = '/usr/bin/chromium';
export const CHROMIUM_AVAILABLE = existsSync(CHROMIUM);

const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-quic',
  '--no-first-run',
  '--disable-component-update',
  '--disable-sync',
];

/** A headless Chromium with a fresh profile, and what its pages reported. */
export interface HeadlessChromium {
  /**
   * The browser context. Its pages are tabs of one window and only the front tab renders frames: call
   * `page.bringToFront()` before acting in another tab, or every click and screenshot there waits ~2 s.
   */
  context: BrowserContext;
  page: Page;
  /** Uncaught page errors. */
  pageErrors: string[];
  /** Responses with a 5xx status the browser received (method, URL without query, status). */
  serverErrors: string[];
  close(): Promise<void>;
}

/** Viewport of a launch; narrow viewports also emulate a touch phone. */
export interface ChromiumViewport {
  width: number;
  height: number;
  mobile?: boolean;
}

/** Launches Chromium (Debian's, headless, fresh temporary profile removed again by `close()`). */
export async function launchChromium(
  viewport: ChromiumViewport = { width: 1280, height: 800 },
): Promise<HeadlessChromium> {
  const userDataDir = await mkdtemp(join(tmpdir(), 'wildo-chromium-'));
  let context: BrowserContext;
  try {
    context = await chromium.launchPersistentContext(userDataDir, {
      executablePath: CHROMIUM,
      headless: true,
      args: CHROMIUM_ARGS,
      viewport: { width: viewport.width, height: viewport.height },
      ...(viewport.mobile ? { isMobile: true, hasTouch: true } : {}),
      colorScheme: 'light',
    });
  } catch (error) {
    await rm(userDataDir, { recursive: true, force: true });
    throw error;
  }
  // A page that never shows what the test waits for fails within seconds, not at the test timeout.
  context.setDefaultTimeout(15_000);
  const pageErrors: string[] = [];
  const serverErrors: string[] = [];
  const page = context.pages()[0] ?? (await context.newPage());
  page.on('pageerror', (error) => pageErrors.push(error.message));
  page.on('response', (response) => {
    if (response.status() >= 500)
      serverErrors.push(`${response.request().method()} ${response.url().split('?')[0]} -> ${response.status()}`);
  });
  return {
    context,
    page,
    pageErrors,
    serverErrors,
    async close() {
      try {
        await context.close();
      } finally {
        await rm(userDataDir, { recursive: true, force: true });
      }
    },
  };
}
