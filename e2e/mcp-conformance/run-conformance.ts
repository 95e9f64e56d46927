/**
 * The MCP conformance suite (`@modelcontextprotocol/conformance`, run with the Node 22 binary of the npm
 * package `node`) against our own MCP endpoint, served by the reference application plus the conformance
 * fixture module in this process.
 *
 *   npx -y pnpm@12.4.2 conformance:mcp                     # from the repository root
 *   npx tsx e2e/mcp-conformance/run-conformance.ts [--verbose]
 *
 * It prints passed/failed check counts per scenario and revision and in total, and exits 1 on any failure
 * not listed in `expected-failures.ts` (or on a listed one that now passes).
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { realpathSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { createLogger, createWildoBackend, type WildoBackend } from '@wildo/backend-api';
import { createPgliteDatabase } from '@wildo/backend-api/persistence';
import { pgliteTemplateDump } from '@wildo/backend-api/testing/pglite-template';
import { referenceApplication } from '@wildo/backend-api/reference-application';
import { freePort } from '@wildo/backend-api/testing/backend-process';
import type { LogLine } from '../support/check-recorder.js';
import { createOrganization, signUp, uniqueMarker } from '../support/fixtures.js';
import { createHttpClient } from '../support/http-client.js';
import { mcpCall, toolNamesOf } from '../support/mcp-client.js';
import { createOrganizationApiKey } from '../support/mcp-credentials.js';
import { EXPECTED_FAILURES, expectedFailureFor, type ExpectedFailure } from './expected-failures.js';
import { CONFORMANCE_FIXTURE_TOOLS, conformanceFixtureModule } from './fixture-module.js';
import { startTokenProxy } from './token-proxy.js';
import { referenceRuntimeOptions } from '../reference-runtime.js';

/** One scenario at one revision. */
export interface PlannedScenario {
  scenario: string;
  specVersion: string;
}

const TOOL_SCENARIOS = [
  'tools-list',
  'tools-call-simple-text',
  'tools-call-image',
  'tools-call-audio',
  'tools-call-embedded-resource',
  'tools-call-mixed-content',
  'tools-call-error',
  'tools-call-with-progress',
];
/** Tool scenarios of the handshake era only (removed in 2026-07-28). */
const HANDSHAKE_TOOL_SCENARIOS = ['tools-call-with-logging', 'tools-call-sampling', 'tools-call-elicitation'];

/** What the runner runs by default: tools at every revision, plus the transport scenarios of each era. */
export const CONFORMANCE_PLAN: readonly PlannedScenario[] = [
  ...[
    ...TOOL_SCENARIOS,
    'json-schema-2020-12',
    'http-header-validation',
    'server-stateless',
    'dns-rebinding-protection',
  ].map((scenario) => ({ scenario, specVersion: '2026-07-28' })),
  ...[
    ...TOOL_SCENARIOS,
    ...HANDSHAKE_TOOL_SCENARIOS,
    'json-schema-2020-12',
    'server-initialize',
    'dns-rebinding-protection',
  ].map((scenario) => ({ scenario, specVersion: '2025-11-25' })),
  ...[...TOOL_SCENARIOS, ...HANDSHAKE_TOOL_SCENARIOS, 'server-initialize'].map((scenario) => ({
    scenario,
    specVersion: '2025-06-18',
  })),
];

/** One check of one scenario run, as the suite wrote it to `checks.json`. */
export interface ConformanceCheck {
  id: string;
  name?: string;
  /** `SUCCESS`, `FAILURE`, `WARNING`, `INFO` or `SKIPPED`; kept open so a status a newer suite adds is read, not refused. */
  status: string;
  errorMessage?: string;
}

/** The outcome of one scenario at one revision. */
export interface ScenarioOutcome extends PlannedScenario {
  passed: number;
  failed: number;
  warnings: number;
  /** INFO and SKIPPED checks. */
  other: number;
  checks: ConformanceCheck[];
  /** Failed checks covered by an expected failure, with it. */
  expected: { check: ConformanceCheck; entry: ExpectedFailure }[];
  unexpected: ConformanceCheck[];
  /** Set when the suite itself did not run or wrote no results. */
  runError?: string;
  /** Wall time of the suite process that ran it (one process runs a whole revision's active suite). */
  durationMs: number;
}

/** The whole run. */
export interface ConformanceReport {
  outcomes: ScenarioOutcome[];
  passed: number;
  failed: number;
  warnings: number;
  expectedFailures: number;
  unexpectedFailures: number;
  /** Expected-failure entries of planned scenarios whose check no longer fails. */
  staleExpectations: ExpectedFailure[];
  durationMs: number;
  /** The Node binary that ran the suite and its version. */
  node: { path: string; version: string };
}

/** Options of {@link runMcpConformance}. */
export interface ConformanceOptions {
  log: LogLine;
  plan?: readonly PlannedScenario[];
  /** Suite processes at once (default 3). */
  concurrency?: number;
  /** Per-scenario timeout given to the suite (ms, default 30 000). */
  timeoutMs?: number;
  /** Print each failed check's message, not only its id. */
  verbose?: boolean;
}

const require = createRequire(import.meta.url);
/** A fixed primary secret for this run only. */
const CONFORMANCE_PRIMARY_SECRET = 'e2e-mcp-conformance-secret-0123456789-abcdefghij';

/** The Node 22 binary of the npm package `node` (the suite needs Node 22; the project runs on Node 20). */
export function node22Binary(): string {
  return join(dirname(require.resolve('node/package.json')), 'bin', 'node');
}

/** The suite's CLI entry point. */
function conformanceCli(): string {
  return join(dirname(require.resolve('@modelcontextprotocol/conformance/package.json')), 'dist', 'index.js');
}

function run(
  command: string,
  args: readonly string[],
  timeoutMs: number,
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
    child.on('error', (error) => {
      clearTimeout(timer);
      resolve({ code: null, output: `${output}\n${String(error)}` });
    });
  });
}

/** A planned scenario's results, or why there are none. */
type ScenarioResults = { checks: ConformanceCheck[] } | { runError: string };

/** A suite process writes each scenario's results to `<dir>/server-<scenario>-<ISO timestamp>/checks.json`. */
const RESULT_DIR = /^server-(.+)-\d{4}-\d{2}-\d{2}T[\d-]+Z$/;

/**
 * Runs the suite once at `specVersion` (one scenario when `scenario` is given, else the suite's active set) and
 * reads the checks each scenario wrote, by scenario name.
 */
async function runSuiteProcess(
  url: string,
  specVersion: string,
  scenario: string | undefined,
  outputRoot: string,
  timeoutMs: number,
): Promise<{ results: Map<string, ConformanceCheck[]>; failure: string; durationMs: number }> {
  const started = Date.now();
  const outputDir = await mkdtemp(join(outputRoot, `${scenario ?? 'active'}-${specVersion}-`));
  const selection = scenario === undefined ? ['--suite', 'active'] : ['--scenario', scenario];
  const args = [conformanceCli(), 'server', '--url', url, ...selection, '--spec-version', specVersion];
  args.push('--timeout', String(timeoutMs), '-o', outputDir);
  // A suite process runs its scenarios one after another, each bounded by the per-scenario timeout.
  const { code, output } = await run(node22Binary(), args, (scenario === undefined ? 10 : 1) * timeoutMs + 30_000);
  const results = new Map<string, ConformanceCheck[]>();
  for (const entry of await readdir(outputDir).catch(() => [] as string[])) {
    const name = RESULT_DIR.exec(entry)?.[1];
    if (name === undefined) continue;
    const checks = await readFile(join(outputDir, entry, 'checks.json'), 'utf8')
      .then((text) => JSON.parse(text) as unknown)
      .catch(() => undefined);
    if (Array.isArray(checks) && checks.length > 0) results.set(name, checks as ConformanceCheck[]);
  }
  const failure = `the suite wrote no results (exit ${code}): ${output.trim().split('\n').slice(-5).join(' | ')}`;
  return { results, failure, durationMs: Date.now() - started };
}

/**
 * Runs the plan with as few Node 22 processes as possible: each process costs more than the scenarios it runs,
 * so every revision's active suite runs in one process, and only the planned scenarios that suite does not
 * include (pending ones, such as `server-stateless`) run alone. Results of scenarios outside the plan are not
 * read.
 */
async function runPlan(
  plan: readonly PlannedScenario[],
  url: string,
  outputRoot: string,
  timeoutMs: number,
  concurrency: number,
): Promise<ScenarioOutcome[]> {
  const revisions = [...new Set(plan.map((p) => p.specVersion))];
  const suites = await pool(revisions, concurrency, (specVersion) =>
    runSuiteProcess(url, specVersion, undefined, outputRoot, timeoutMs),
  );
  const bySuite = new Map(revisions.map((specVersion, index) => [specVersion, suites[index]]));
  const leftOver = plan.filter((p) => !bySuite.get(p.specVersion)?.results.has(p.scenario));
  const alone = await pool(leftOver, concurrency, (p) =>
    runSuiteProcess(url, p.specVersion, p.scenario, outputRoot, timeoutMs),
  );
  const aloneByPlanned = new Map(leftOver.map((p, index) => [p, alone[index]]));
  return plan.map((planned) => {
    const ran = aloneByPlanned.get(planned) ?? bySuite.get(planned.specVersion);
    const checks = ran?.results.get(planned.scenario);
    return outcomeOf(planned, checks ? { checks } : { runError: ran?.failure ?? 'not run' }, ran?.durationMs ?? 0);
  });
}

/** Counts a scenario's checks, matching its failures against the expected ones. */
function outcomeOf(planned: PlannedScenario, results: ScenarioResults, durationMs: number): ScenarioOutcome {
  const outcome: ScenarioOutcome = {
    ...planned,
    passed: 0,
    failed: 0,
    warnings: 0,
    other: 0,
    checks: [],
    expected: [],
    unexpected: [],
    durationMs,
  };
  if ('runError' in results) {
    outcome.runError = results.runError;
    outcome.failed = 1;
    outcome.unexpected.push({ id: '(suite run)', status: 'FAILURE', errorMessage: outcome.runError });
    return outcome;
  }
  outcome.checks = results.checks;
  for (const check of results.checks) {
    if (check.status === 'SUCCESS') outcome.passed += 1;
    else if (check.status === 'WARNING') outcome.warnings += 1;
    else if (check.status === 'FAILURE') {
      outcome.failed += 1;
      const entry = expectedFailureFor(planned.scenario, planned.specVersion, check.id);
      if (entry) outcome.expected.push({ check, entry });
      else outcome.unexpected.push(check);
    } else outcome.other += 1;
  }
  return outcome;
}

/** Runs `tasks` with at most `limit` at once, keeping their order in the result. */
async function pool<T, R>(items: readonly T[], limit: number, task: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await task(items[index] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/** The reference application plus the fixture module, on a free 127.0.0.1 port that is also its public URL. */
async function startConformanceBackend(): Promise<{
  backend: WildoBackend;
  issuer: string;
  errorLog: string[];
  close(): Promise<void>;
}> {
  const port = await freePort();
  const issuer = `http://127.0.0.1:${port}`;
  const errorLog: string[] = [];
  const database = await createPgliteDatabase({ loadDataDir: await pgliteTemplateDump() });
  try {
    const backend = await createWildoBackend({
      application: { ...referenceApplication, modules: [...referenceApplication.modules, conformanceFixtureModule] },
      database,
      logger: createLogger({ level: 'error', destination: { write: (line: string) => void errorLog.push(line) } }),
      primarySecret: CONFORMANCE_PRIMARY_SECRET,
      ...(await referenceRuntimeOptions()),
      publicUrl: issuer,
    });
    await backend.listen(port, '127.0.0.1');
    return {
      backend,
      issuer,
      errorLog,
      async close() {
        try {
          await backend.close();
        } finally {
          await database.close();
        }
      },
    };
  } catch (error) {
    await database.close();
    throw error;
  }
}

const pad = (text: string, width: number) => (text.length >= width ? text : text + ' '.repeat(width - text.length));

/**
 * Starts the backend with the fixture module, provisions an organization and its API key, puts the
 * credential-injecting proxy in front of `/api/v1/mcp`, runs the planned scenarios with Node 22 and returns
 * (and logs) the counts. It throws only when the setup fails; suite failures are in the report.
 */
export async function runMcpConformance(options: ConformanceOptions): Promise<ConformanceReport> {
  const { log } = options;
  const plan = options.plan ?? CONFORMANCE_PLAN;
  const started = Date.now();
  const nodePath = node22Binary();
  const version = (await run(nodePath, ['--version'], 10_000)).output.trim();
  if (!version.startsWith('v22.'))
    throw new Error(`the conformance suite needs Node 22; ${nodePath} is ${version || 'not runnable'}`);

  const server = await startConformanceBackend();
  const outputRoot = await mkdtemp(join(tmpdir(), 'wildo-mcp-conformance-'));
  try {
    // A person, an organization and an organization API key, provisioned through the public API.
    const client = createHttpClient(server.issuer);
    const admin = await signUp(client, 'conformance');
    const organizationId = await createOrganization(client, admin, uniqueMarker('conformance org'));
    const credential = await createOrganizationApiKey(client, admin, organizationId, {
      name: 'MCP conformance',
      label: 'conformance API key',
    });
    const proxy = await startTokenProxy({ target: `${server.issuer}/api/v1/mcp`, authorization: credential.header() });
    try {
      // The endpoint must serve the fixtures to this credential before the suite is worth running.
      const listed = toolNamesOf(await mcpCall(client, '/api/v1/mcp', 'tools/list', {}, { credential }));
      const missing = CONFORMANCE_FIXTURE_TOOLS.map((tool) => tool.descriptor.name).filter(
        (name) => !listed.includes(name),
      );
      if (missing.length > 0)
        throw new Error(`tools/list through the API key lacks the fixture tools ${missing.join(', ')}`);

      log(
        `MCP conformance (@modelcontextprotocol/conformance, Node ${version}) against ${server.issuer}/api/v1/mcp through ${proxy.url}`,
      );
      log(`${plan.length} scenario runs, ${options.concurrency ?? 3} suite processes at a time`);
      const outcomes = await runPlan(
        plan,
        proxy.url,
        outputRoot,
        options.timeoutMs ?? 30_000,
        options.concurrency ?? 3,
      );

      log('');
      log(
        `${pad('revision', 11)} ${pad('scenario', 30)} ${pad('passed', 6)} ${pad('failed', 6)} ${pad('expected', 8)} warnings`,
      );
      for (const outcome of outcomes) {
        log(
          `${pad(outcome.specVersion, 11)} ${pad(outcome.scenario, 30)} ${pad(String(outcome.passed), 6)} ${pad(String(outcome.failed), 6)} ${pad(String(outcome.expected.length), 8)} ${outcome.warnings}`,
        );
        for (const check of outcome.unexpected)
          log(
            `    UNEXPECTED FAILURE ${check.id}${options.verbose || check.id === '(suite run)' ? `: ${check.errorMessage ?? ''}` : ''}`,
          );
        for (const { check } of outcome.expected)
          log(`    expected failure ${check.id}${options.verbose ? `: ${check.errorMessage ?? ''}` : ''}`);
        if (options.verbose)
          for (const check of outcome.checks.filter((c) => c.status === 'WARNING'))
            log(`    warning ${check.id}: ${check.errorMessage ?? ''}`);
      }

      const failedIn = (entry: ExpectedFailure) => outcomes.some((o) => o.expected.some((e) => e.entry === entry));
      const planned = (entry: ExpectedFailure) =>
        plan.some(
          (p) => p.scenario === entry.scenario && (!entry.specVersions || entry.specVersions.includes(p.specVersion)),
        );
      const staleExpectations = EXPECTED_FAILURES.filter((entry) => planned(entry) && !failedIn(entry));
      const sum = (pick: (o: ScenarioOutcome) => number) => outcomes.reduce((total, o) => total + pick(o), 0);
      const report: ConformanceReport = {
        outcomes,
        passed: sum((o) => o.passed),
        failed: sum((o) => o.failed),
        warnings: sum((o) => o.warnings),
        expectedFailures: sum((o) => o.expected.length),
        unexpectedFailures: sum((o) => o.unexpected.length),
        staleExpectations,
        durationMs: Date.now() - started,
        node: { path: nodePath, version },
      };
      log('');
      if (report.expectedFailures > 0) {
        log('Expected failures:');
        for (const entry of EXPECTED_FAILURES.filter(failedIn))
          log(
            `  ${entry.scenario} / ${entry.check} (${entry.specVersions?.join(', ') ?? 'all revisions'}): ${entry.reason}`,
          );
      }
      for (const entry of staleExpectations)
        log(`STALE expected failure ${entry.scenario} / ${entry.check}: it passes now; remove the entry`);
      if (server.errorLog.length > 0)
        log(`The backend logged ${server.errorLog.length} error line(s); first: ${server.errorLog[0]?.slice(0, 300)}`);
      log(
        `Total: ${report.passed} passed, ${report.failed} failed (${report.expectedFailures} expected, ${report.unexpectedFailures} unexpected), ${report.warnings} warnings; ${(report.durationMs / 1000).toFixed(1)} s`,
      );
      return report;
    } finally {
      await proxy.close();
    }
  } finally {
    await rm(outputRoot, { recursive: true, force: true });
    await server.close();
  }
}

/** The exit code of a run: 1 on an unexpected failure, a stale expected failure, or a run that checked nothing. */
export function conformanceExitCode(report: ConformanceReport): 0 | 1 {
  return report.unexpectedFailures > 0 || report.staleExpectations.length > 0 || report.passed === 0 ? 1 : 0;
}

// Run as a script, not when imported by a test.
const invokedPath = process.argv[1];
if (invokedPath && import.meta.url === pathToFileURL(realpathSync(invokedPath)).href) {
  const verbose = process.argv.includes('--verbose');
  try {
    const report = await runMcpConformance({ log: (line) => process.stdout.write(`${line}\n`), verbose });
    process.exitCode = conformanceExitCode(report);
  } catch (error) {
    process.stderr.write(
      `conformance:mcp could not run: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exitCode = 1;
  }
}
