import { ensurePgliteTemplate } from './pglite-template.js';

/** Vitest global setup: builds the embedded-database template once, before any worker needs it. */
export default async function setup(): Promise<void> {
  await ensurePgliteTemplate();
}
