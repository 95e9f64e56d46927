import path from 'node:path';
import { findProjectRoot, isProjectRoot, ProjectRootNotFoundError } from '../engine/config/index.js';

/** Where a command looks for the project: its working directory and an optional explicit `--root`. */
export interface ProjectRootOptions {
  /** The directory the command runs from; the project root is searched upward from it. */
  cwd: string;
  /** An explicit project root (relative to `cwd`); no upward search. */
  root?: string;
}

/** The project root: `--root` when given (it must hold wildo.saas.config.ts), else the nearest one upward. */
export function resolveProjectRoot(options: ProjectRootOptions): string {
  if (options.root === undefined) return findProjectRoot(options.cwd);
  const rootDir = path.resolve(options.cwd, options.root);
  if (!isProjectRoot(rootDir)) throw new ProjectRootNotFoundError(rootDir, false);
  return rootDir;
}
