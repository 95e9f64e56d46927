import { existsSync } from 'node:fs';
import path from 'node:path';
import { CONFIG_FILE_NAME } from './config.constants.js';
import { ProjectRootNotFoundError } from './config.errors.js';

/** Whether a directory holds the application configuration file. */
export function isProjectRoot(dir: string): boolean {
  return existsSync(path.join(dir, CONFIG_FILE_NAME));
}

/**
 * Finds the project root: the nearest directory, starting at `startDir` and going up, that holds
 * `wildo.saas.config.ts`. Throws {@link ProjectRootNotFoundError} when there is none.
 *
 * @example
 * const rootDir = findProjectRoot(process.cwd());
 */
export function findProjectRoot(startDir: string): string {
  let dir = path.resolve(startDir);
  for (;;) {
    if (isProjectRoot(dir)) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) throw new ProjectRootNotFoundError(path.resolve(startDir), true);
    dir = parent;
  }
}
