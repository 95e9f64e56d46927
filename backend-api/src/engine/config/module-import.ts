import { pathToFileURL } from 'node:url';
import { createJiti, type JitiOptions } from 'jiti';

/** Imports a module by URL (the host's `import()`, or a stand-in in tests). */
export type ModuleImporter = (url: string) => Promise<unknown>;

/** How a file is imported. */
export interface ModuleFileImport extends Pick<JitiOptions, 'fsCache'> {
  /**
   * Read the file as it is now even if this process imported it before (the host's module cache keys on the URL,
   * so each import gets a URL of its own; modules the file imports are shared).
   */
  fresh?: boolean;
}

let imports = 0;

/**
 * Evaluates a TypeScript (or JavaScript) module file and returns its namespace. The host's own loader goes first
 * (tsx's under `npm start` and `bin/wildo.mjs`, Vitest's in tests): it shares the modules already loaded and
 * evaluates the file once. Only where the host has no loader for the file type (plain Node 20 and `.ts`) does
 * jiti transpile it and what it imports, with no module cache. Failures of the file itself are thrown as they are,
 * after one evaluation.
 */
export async function importModuleFile(
  file: string,
  { fresh = false, fsCache }: ModuleFileImport,
  hostImport: ModuleImporter = (url) => import(url),
): Promise<Record<string, unknown>> {
  const url = pathToFileURL(file);
  if (fresh) url.search = `wildo-import=${++imports}`;
  let loaded: unknown;
  try {
    loaded = await hostImport(url.href);
  } catch (error) {
    if (!hostCannotLoad(error)) throw error;
    const jiti = createJiti(import.meta.url, { moduleCache: false, interopDefault: false, fsCache });
    loaded = await jiti.import(file);
  }
  return typeof loaded === 'object' && loaded !== null ? (loaded as Record<string, unknown>) : {};
}

/**
 * The host could not parse the file, so nothing of it ran: no loader for the type (`.ts` on plain Node), or a
 * loader that does not transform it (tsx's ESM hooks leave a `.ts` file outside an ES-module package to Node's
 * CommonJS loader). jiti transforms it; a real syntax error is reported by jiti in turn. (A SyntaxError the file
 * throws while running is retried through jiti too: the one case of a second evaluation.)
 */
function hostCannotLoad(error: unknown): boolean {
  return error instanceof SyntaxError || (error as { code?: unknown } | null)?.code === 'ERR_UNKNOWN_FILE_EXTENSION';
}
