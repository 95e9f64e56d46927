import { symlink } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CodingLocationGuard } from './coding-location.guard.js';
import { workspaceFixture, type WorkspaceFixture } from './coding.fixtures.js';

describe('the coding location guard', () => {
  let workspace: WorkspaceFixture;
  let guard: CodingLocationGuard;

  beforeAll(async () => {
    workspace = await workspaceFixture();
    await symlink(workspace.outside, workspace.at('src', 'linked-dir'));
    await symlink(path.join(workspace.outside, 'note.txt'), workspace.at('src', 'linked-file.txt'));
    const allowed = workspace.at('src');
    guard = new CodingLocationGuard(
      workspace.root,
      (location) => location === allowed || location.startsWith(allowed + path.sep),
    );
  });
  afterAll(() => workspace.cleanup());

  it('admits permitted locations, existing or not yet created', async () => {
    expect(await guard.check(workspace.at('src', 'app.ts'))).toEqual({ ok: true, path: workspace.at('src', 'app.ts') });
    expect(await guard.check(workspace.at('src', 'a', 'b', 'new.ts'))).toMatchObject({ ok: true });
  });

  it.each([
    ['a relative path', 'src/app.ts', 'not_absolute'],
    ['a path with NUL', '/tmp/\u0000', 'not_absolute'],
    ['a non-string', 42, 'not_absolute'],
  ])('refuses %s', async (_name, location, reason) => {
    expect(await guard.check(location)).toEqual({ ok: false, reason });
  });

  it('refuses .. segments even when they resolve inside the permitted area', async () => {
    expect(await guard.check(`${workspace.at('src')}/../src/app.ts`)).toEqual({ ok: false, reason: 'dot_segments' });
    expect(await guard.check(`${workspace.at('src')}/..\\secrets/key.txt`)).toEqual({
      ok: false,
      reason: 'dot_segments',
    });
  });

  it('refuses locations outside the workspace, a sibling sharing its name as prefix included', async () => {
    expect(await guard.check(path.join(workspace.outside, 'note.txt'))).toEqual({
      ok: false,
      reason: 'outside_workspace',
    });
    expect(await guard.check(`${workspace.root}-evil/src/x.ts`)).toEqual({ ok: false, reason: 'outside_workspace' });
  });

  it('refuses a path through a symbolic link, as a directory or as the file itself', async () => {
    expect(await guard.check(workspace.at('src', 'linked-dir', 'note.txt'))).toEqual({ ok: false, reason: 'symlink' });
    expect(await guard.check(workspace.at('src', 'linked-file.txt'))).toEqual({ ok: false, reason: 'symlink' });
  });

  it('refuses what the predicate does not permit, and everything when the predicate throws', async () => {
    expect(await guard.check(workspace.at('secrets', 'key.txt'))).toEqual({ ok: false, reason: 'not_permitted' });
    const throwing = new CodingLocationGuard(workspace.root, () => {
      throw new Error('broken predicate');
    });
    expect(await throwing.check(workspace.at('src', 'app.ts'))).toEqual({ ok: false, reason: 'not_permitted' });
  });
});
