import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSilentLogger } from '../logging/index.js';
import { resolvePrimarySecret } from './primary-secret.js';

let dataDir: string;

beforeEach(async () => {
  dataDir = path.join(await mkdtemp(path.join(tmpdir(), 'wildo-secret-')), 'data');
});

afterEach(async () => {
  await rm(path.dirname(dataDir), { recursive: true, force: true });
});

const resolveDevelopmentSecret = () =>
  resolvePrimarySecret({ production: false, dataDir, logger: createSilentLogger() });

describe('resolvePrimarySecret without WILDO_PRIMARY_SECRET', () => {
  it('generates the development secret once, readable by its owner only, and reads it back', async () => {
    const first = await resolveDevelopmentSecret();
    const file = path.join(dataDir, 'dev-primary-secret');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await readFile(file, 'utf8')).trim()).toMatch(/^[\w-]{64}$/);
    expect((await resolveDevelopmentSecret()).derive('signing-keys')).toEqual(first.derive('signing-keys'));
  });

  it('gives simultaneous first starts on a fresh directory one and the same secret', async () => {
    const secrets = await Promise.all(Array.from({ length: 8 }, () => resolveDevelopmentSecret()));
    const keys = new Set(secrets.map((secret) => secret.derive('signing-keys').toString('hex')));
    expect(keys.size).toBe(1);
  });
});
