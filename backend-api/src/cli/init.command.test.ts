import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CapabilityCandidate } from '../engine/toolchain/index.js';
import { runWildoCli } from './wildo.cli.js';

// `wildo init` on an OpenAPI 3.0 (YAML) and a 3.1 (JSON) description of the agency: shared and component
// parameters, request bodies, $refs and allOf. Effects stay undecided until a decisions file sets them.

const OPENAPI = path.join(import.meta.dirname, 'toolchain-fixtures', 'openapi');
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'wildo-init-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const init = (...args: string[]) => runWildoCli(['init', ...args], { cwd: dir });

async function decide(name: string, effects: Record<string, string>): Promise<string> {
  const file = path.join(dir, name);
  await writeFile(file, JSON.stringify({ effects }));
  return file;
}

describe('wildo init', () => {
  it('lists a candidate per operation of a 3.0 description and writes nothing without decisions', async () => {
    const result = await init(path.join(OPENAPI, 'agency-3.0.yaml'));
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toContain('3 candidate capabilities');
    expect(result.stdout).toContain('get-stay  GET /v1/stays/{stayId}');
    // The shared $ref parameter, and the allOf of Stay and its rooms.
    expect(result.stdout).toContain('path.stayId: string (required)');
    expect(result.stdout).toContain('rooms[].sleeps: integer');
    expect(result.stderr).toContain('every effect is undecided');
    expect(await readdir(dir)).toEqual([]);
  }, 60_000);

  it('writes the candidates with the effects a decisions file sets (3.0)', async () => {
    const decisions = await decide('decisions-3.0.json', {
      'search-stays': 'read',
      'get-stay': 'read',
      'post-v1-bookings-booking-id-cancel': 'irreversible',
    });
    const out = path.join(dir, 'candidates-3.0.json');
    const result = await init(path.join(OPENAPI, 'agency-3.0.yaml'), '--decisions', decisions, '--out', out);
    expect(result.exitCode, result.stderr).toBe(0);
    const written = JSON.parse(await readFile(out, 'utf8')) as { capabilities: CapabilityCandidate[] };
    const byId = new Map(written.capabilities.map((c) => [c.id, c]));
    expect(byId.get('post-v1-bookings-booking-id-cancel')).toMatchObject({
      effect: 'irreversible',
      input: [
        { path: 'path.bookingId', type: 'string', required: true },
        { path: 'query.reason', type: 'string', required: false },
      ],
    });
    expect(byId.get('search-stays')?.input).toEqual([
      { path: 'body.destination', type: 'string', required: true },
      { path: 'body.guests', type: 'integer|null', required: false },
    ]);
    expect(byId.get('get-stay')?.output).toContainEqual({ path: 'name', type: 'string', required: true });
  });

  it('reads a 3.1 description (allOf bodies, type arrays) and refuses partial decisions', async () => {
    const partial = await decide('partial-3.1.json', { 'create-quote': 'write' });
    const refused = await init(path.join(OPENAPI, 'agency-3.1.json'), '--decisions', partial, '--out', 'never.json');
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toContain('no effect decided for availability');
    expect(await readdir(dir)).not.toContain('never.json');
    const decisions = await decide('decisions-3.1.json', { 'create-quote': 'write', availability: 'skip' });
    const out = path.join(dir, 'candidates-3.1.json');
    expect((await init(path.join(OPENAPI, 'agency-3.1.json'), '--decisions', decisions, '--out', out)).exitCode).toBe(
      0,
    );
    const written = JSON.parse(await readFile(out, 'utf8')) as { capabilities: CapabilityCandidate[] };
    expect(written.capabilities.map((c) => c.id)).toEqual(['create-quote']);
    expect(written.capabilities[0]?.input).toEqual([
      { path: 'body.pets', type: 'integer', required: false },
      { path: 'body.stayId', type: 'string', required: true },
    ]);
  });

  it('refuses an effect outside the list, a remote $ref and a file that is no description', async () => {
    const wrong = await decide('wrong.json', { 'create-quote': 'maybe' });
    const result = await init(path.join(OPENAPI, 'agency-3.1.json'), '--decisions', wrong);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain('effects.create-quote is "maybe"');
    const remote = path.join(dir, 'remote.yaml');
    await writeFile(
      remote,
      'openapi: 3.0.3\ninfo: { title: x, version: "1" }\npaths:\n  /a:\n    get:\n      responses:\n        "200":\n          $ref: "https://evil.example/r.yaml"\n',
    );
    expect((await init(remote)).stderr).toContain('only local references are followed');
    const notOpenApi = await init(path.join(OPENAPI, '..', 'agency-v1.fixtures.ts'));
    expect(notOpenApi.exitCode).toBe(1);
    expect(notOpenApi.stderr).toMatch(/^wildo init: /);
  });
});
