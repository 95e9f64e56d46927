import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createTempProject, type TempProject } from './config.fixtures.js';
import { ProjectRootNotFoundError } from './config.errors.js';
import { findProjectRoot } from './project-root.js';

const projects: TempProject[] = [];

afterEach(async () => {
  await Promise.all(projects.splice(0).map((p) => p.cleanup()));
});

describe('findProjectRoot', () => {
  it('returns the nearest ancestor holding wildo.saas.config.ts', async () => {
    const p = await createTempProject('export default {};\n');
    projects.push(p);
    const nested = path.join(p.rootDir, 'backend-api', 'src');
    await mkdir(nested, { recursive: true });
    expect(findProjectRoot(nested)).toBe(p.rootDir);
  });

  it('throws ProjectRootNotFoundError when no ancestor holds the file', async () => {
    const p = await createTempProject();
    projects.push(p);
    expect(() => findProjectRoot(p.rootDir)).toThrow(ProjectRootNotFoundError);
  });
});
