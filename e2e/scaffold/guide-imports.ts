import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from './scaffold-harness.js';

const GUIDE_FILE = 'shared/seeds/002_148ec0cfc83010bf.txt';

/** The framework guide (the specification of names) in `shared/` beside the clone or a folder above it, if there. */
export function findGuide(): string | undefined {
  for (let dir = path.dirname(REPO_ROOT); ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, GUIDE_FILE))) return path.join(dir, GUIDE_FILE);
    if (path.dirname(dir) === dir) return undefined;
  }
}

/** The framework guide's path; throws when it is not beside the repository. */
export function guidePath(): string {
  const found = findGuide();
  if (!found) throw new Error(`the guide (${GUIDE_FILE}) is not beside the repository`);
  return found;
}

/** The guide's package names and the packages a consumer installs under them (README: Start your own application). */
export const GUIDE_PACKAGE_MAPPING: Readonly<Record<string, string>> = {
  '@wildo-ai/saas-backend-lib': '@wildo/backend-api',
  '@wildo-ai/saas-models': '@wildo/shared-lib',
  '@wildo-ai/zod-decorators': '@wildo/shared-lib',
  '@wildo-ai/platform-config-lib': '@wildo/shared-lib',
  '@wildo-ai/external-connectors-models': '@wildo/shared-lib',
  '@wildo-ai/saas-frontend-lib': '@wildo/frontend',
};

/**
 * Names the guide's prose tells the reader to import without writing the statement ("Import the view contract and
 * scope enum from @wildo-ai/saas-frontend-lib/companion"), by package.
 */
const PROSE_IMPORTS: Readonly<Record<string, readonly string[]>> = {
  '@wildo-ai/saas-frontend-lib/companion': ['FlowsActorsViewDefinition', 'FrontendView_ScopeMode'],
  '@wildo-ai/external-connectors-models': ['APPLICATION_ENVIRONMENT', 'ExternalProvider_ExchangeProtocol_Kind'],
};

/** Identifiers (not English words) in a sentence: an upper-case letter after the first, or an underscore. */
const IDENTIFIER = /\b[A-Za-z_][A-Za-z0-9_]*(?:[A-Z_][A-Za-z0-9_]*)\b/g;

/**
 * One file per import the guide makes from its packages (`export { ... } from '...'`, so each name must be exported
 * under that package): the statements it writes out, and the names its prose says to import from where.
 */
export function guideImportFiles(guideText = readFileSync(guidePath(), 'utf8')): Record<string, string> {
  const byPackage = new Map<string, Set<string>>();
  const add = (pkg: string, name: string) => {
    const names = byPackage.get(pkg) ?? new Set<string>();
    names.add(name);
    byPackage.set(pkg, names);
  };
  for (const match of guideText.matchAll(/import\s+(type\s+)?\{([^}]*)\}\s+from\s+'(@wildo-ai\/[^']+)'/g)) {
    for (const raw of (match[2] ?? '').split(',')) {
      const name = raw.trim().replace(/^type\s+/, '');
      if (name) add(match[3] ?? '', name);
    }
  }
  // "Import A and B from @wildo-ai/x" and "... and C from @wildo-ai/y" in one sentence.
  for (const match of guideText.matchAll(/(?:Import|and) ([^.]*?) from (@wildo-ai\/[\w/-]+)/g))
    for (const name of (match[1] ?? '').match(IDENTIFIER) ?? []) add(match[2] ?? '', name);
  for (const [pkg, names] of Object.entries(PROSE_IMPORTS)) for (const name of names) add(pkg, name);
  const files: Record<string, string> = {};
  [...byPackage].forEach(([pkg, names], index) => {
    files[`guide-imports-${index}.ts`] =
      `// Every name the guide imports from ${pkg}.\nexport { ${[...names].sort().join(', ')} } from '${pkg}';\n`;
  });
  return files;
}
