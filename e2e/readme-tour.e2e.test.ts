import { execFile, execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort, startBackendProcess, type BackendProcess } from '@wildo/backend-api/testing/backend-process';
import { seedDataDirectory } from '@wildo/backend-api/testing/pglite-template';
import { startStubModels, type StubModels } from '@wildo/backend-api/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assignedVariables, readTourBlocks, type ReadmeShellBlock } from './readme-tour.js';

// The README's tour, run as written: every ```sh block from "Run it" through "6. Agents" in order, with bash,
// against the real backend process (`tsx src/main.ts`) on a free port and a temporary data directory. The
// README's `localhost:4241` becomes that port; its variables (API, TOKEN, ORG, ...) carry from block to block.
// Section 6 needs a model: the stand-in models of `wildo dev --stub-models`, as the README tells a reader to start.

const ROOT = path.resolve(import.meta.dirname, '..');
const TOOLS = ['bash', 'curl', 'jq', 'sed', 'date'];
const run = promisify(execFile);

/** The tools the README's commands use that this machine lacks. */
function missingTools(): string[] {
  return TOOLS.filter((tool) => {
    try {
      execFileSync('bash', ['-c', `command -v ${tool}`], { stdio: 'ignore' });
      return false;
    } catch {
      return true;
    }
  });
}

describe('the README tour', () => {
  let models: StubModels | undefined;
  let backend: BackendProcess | undefined;
  let workDir: string;
  let port: number;

  beforeAll(async () => {
    const missing = missingTools();
    // A missing tool fails the run (never a skip): the README tells people to use these.
    if (missing.length > 0)
      throw new Error(
        `The README tour needs ${missing.join(', ')} on the PATH (install with apt-get install -y ${missing.join(' ')}; .ci/run does).`,
      );
    workDir = await mkdtemp(path.join(tmpdir(), 'wildo-readme-tour-'));
    models = await startStubModels();
    port = await freePort();
    // A fresh data directory as `npm start` would create it, copied from the initialized template (no initdb).
    await seedDataDirectory(path.join(workDir, 'data'));
    backend = await startBackendProcess({
      PORT: String(port),
      WILDO_DATA_DIR: path.join(workDir, 'data'),
      ...models.env,
    });
  }, 240_000);
  afterAll(async () => {
    await backend?.stop();
    await models?.close();
    if (workDir) await rm(workDir, { recursive: true, force: true });
  });

  /** Runs `script` with bash (`set -euo pipefail`), with the variables earlier blocks left, and keeps those it sets. */
  async function runBlock(script: string, variables: readonly string[]) {
    const state = path.join(workDir, 'tour.vars');
    const text = [
      'set -euo pipefail',
      `if [ -f '${state}' ]; then source '${state}'; fi`,
      script.replaceAll('localhost:4241', `localhost:${port}`),
      `for v in ${variables.join(' ')}; do if [ -n "\${!v+x}" ]; then declare -p "$v"; fi; done > '${state}'`,
    ].join('\n');
    try {
      const { stdout, stderr } = await run('bash', ['-c', text], { cwd: ROOT, timeout: 60_000 });
      return { code: 0, stdout, stderr };
    } catch (error) {
      const failed = error as { code?: number; stdout?: string; stderr?: string };
      return { code: failed.code ?? -1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
    }
  }

  const describeBlock = (block: ReadmeShellBlock, result: { code: number; stdout: string; stderr: string }) =>
    `README.md line ${block.line} (${block.heading}) exited ${result.code}\n--- script\n${block.script}\n--- stdout\n${result.stdout}\n--- stderr\n${result.stderr}`;

  it('runs every sh block from "Run it" through "6. Agents" in order, and ends with the todo renamed', async () => {
    const blocks = readTourBlocks(path.join(ROOT, 'README.md'));
    expect(blocks.map((b) => b.heading)).toEqual(
      expect.arrayContaining([
        'Run it',
        '3. Call it',
        '4. Credentials and delegation',
        '6. Agents, assistants and approvals',
      ]),
    );
    const variables = assignedVariables(blocks);
    expect(variables).toEqual(
      expect.arrayContaining(['API', 'TOKEN', 'ORG', 'KEY', 'KEY_ID', 'APPROVAL', 'APPROVAL_TOKEN']),
    );
    for (const block of blocks) {
      const result = await runBlock(block.script, variables);
      expect(result.code, describeBlock(block, result)).toBe(0);
    }
    // The approved rename took effect, read back with the tour's own variables.
    const check = await runBlock(
      'curl -fsS "$API/organizations/$ORG/todos" -H "authorization: Bearer $TOKEN" | jq -e \'any(.data[]; .title == "Buy oat milk")\'',
      variables,
    );
    expect(check.code, check.stderr).toBe(0);
    expect(backend!.logLines.filter((line) => (line.level ?? 0) >= 50)).toEqual([]);
  }, 180_000);
});
