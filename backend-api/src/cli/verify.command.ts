import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { toCanonicalJson } from '../engine/config/canonical-json.js';
import { loadCapabilityManifest } from '../engine/connectors/index.js';
import { createSilentLogger } from '../engine/logging/index.js';
import type { BackendApplicationDefinition } from '../engine/bootstrap/index.js';
import {
  adoptFields,
  callFailure,
  compareFingerprints,
  fingerprint,
  missingDeclaredValues,
  openContractRunner,
  proposeAdoptions,
  statusOf,
  type AdoptionProposal,
  type ContractCheck,
  type ContractEntry,
  type ContractFile,
  type ContractRunner,
} from '../engine/toolchain/index.js';
import { loadApplication, type ApplicationLocation } from './application-loader.js';
import type { CliOutput } from './cli.output.js';
import type { CliStyle } from './cli.style.js';

/** The contract file's name, beside the declaration (the manifest directory, or the application file's folder). */
export const CONTRACT_FILE = 'wildo.contract.json';

/** Asks a person one question on a terminal; undefined when there is no one to ask (or no answer). */
export type Prompt = (question: string) => Promise<string | undefined>;

/** Options shared by `wildo verify` and `wildo adopt`. */
export interface ContractCommandOptions extends ApplicationLocation {
  /** A manifest directory holding the declarations (instead of an application file). */
  manifest?: string;
  /** The contract file; default: {@link CONTRACT_FILE} beside the declaration. */
  contracts?: string;
  env: Readonly<Record<string, string | undefined>>;
  json?: boolean;
}

interface Loaded {
  application: BackendApplicationDefinition;
  contractFile: string;
  manifestDir?: string;
}

async function loadDeclarations(options: ContractCommandOptions): Promise<Loaded> {
  const contractsOverride = options.contracts ? path.resolve(options.cwd, options.contracts) : undefined;
  if (options.manifest !== undefined) {
    const manifestDir = path.resolve(options.cwd, options.manifest);
    const module = loadCapabilityManifest({ directory: manifestDir });
    return {
      application: { name: module.name, modules: [module] },
      contractFile: contractsOverride ?? path.join(manifestDir, CONTRACT_FILE),
      manifestDir,
    };
  }
  const loaded = await loadApplication(options);
  const appFile = path.resolve(options.cwd, loaded.file);
  return {
    application: loaded.application,
    contractFile: contractsOverride ?? path.join(path.dirname(appFile), CONTRACT_FILE),
  };
}

async function readContracts(file: string): Promise<ContractFile | undefined> {
  if (!existsSync(file)) return undefined;
  const parsed = JSON.parse(await readFile(file, 'utf8')) as Partial<ContractFile>;
  if (parsed.capabilities === null || typeof parsed.capabilities !== 'object')
    throw new Error(`${file} is not a contract file ({ "capabilities": { ... } })`);
  return parsed as ContractFile;
}

/** Checks every recorded capability against the backend now (read-only: nothing is written). */
async function checkAll(
  runner: ContractRunner,
  contracts: ContractFile,
  style: CliStyle,
): Promise<{ checks: ContractCheck[]; answers: Map<string, unknown> }> {
  const checks: ContractCheck[] = [];
  const answers = new Map<string, unknown>();
  const recorded = runner.capabilities.filter((c) => contracts.capabilities[c.id]?.answer);
  let done = 0;
  for (const capability of runner.capabilities) {
    const entry = contracts.capabilities[capability.id];
    if (!entry?.answer) {
      checks.push({ capability: capability.id, status: 'unrecorded', gained: [], lost: [], retyped: [], problems: [] });
      continue;
    }
    style.progress(++done, recorded.length, capability.id);
    const problems = [...(runner.setupProblems.get(capability.id) ?? [])];
    let fields: Pick<ContractCheck, 'gained' | 'lost' | 'retyped'> = { gained: [], lost: [], retyped: [] };
    if (problems.length === 0) {
      try {
        const { answer, mapped } = await runner.call(capability, entry);
        answers.set(capability.id, answer);
        fields = compareFingerprints(entry.answer, fingerprint(answer));
        for (const missing of missingDeclaredValues(capability.operation.responseSchema, mapped))
          problems.push(`a declared value is missing or wrong: ${missing}`);
        problems.push(...rlsProblems(entry, runner.tables(capability)));
      } catch (error) {
        problems.push(callFailure(error));
      }
    }
    const check = { ...fields, problems };
    checks.push({ capability: capability.id, status: statusOf(check), ...check });
  }
  return { checks, answers };
}

/** Row security as recorded: a table no longer guarded, or with fewer policies, is red. */
function rlsProblems(entry: ContractEntry, now: readonly { name: string; policies: number }[] | undefined): string[] {
  if (!entry.rls) return [];
  const tables = new Map((now ?? []).map((t) => [t.name, t.policies]));
  return entry.rls.flatMap(({ table, policies }) => {
    const current = tables.get(table);
    if (current === undefined) return [`row-level security: ${table} is no longer guarded`];
    return current < policies
      ? [`row-level security: ${table} has ${current} policies, ${policies} when recorded`]
      : [];
  });
}

function renderChecks(checks: readonly ContractCheck[], contractFile: string, style: CliStyle): string {
  const paint = { green: style.green, yellow: style.yellow, red: style.red, unrecorded: style.dim };
  const lines = [`Contracts in ${contractFile}`];
  for (const check of checks) {
    const details = [
      ...check.gained.map((f) => `gained ${f.path} (${f.type})`),
      ...check.lost.map((f) => `lost ${f.path} (${f.type})`),
      ...check.retyped.map((f) => `retyped ${f.path} (${f.before} -> ${f.after})`),
      ...check.problems,
      ...(check.status === 'unrecorded' ? ['no recorded contract: wildo verify --record'] : []),
    ];
    lines.push(
      `  ${paint[check.status](check.status.padEnd(10))}  ${style.bold(check.capability)}  ${details.join('; ')}`.trimEnd(),
    );
  }
  const count = (status: string) => checks.filter((c) => c.status === status).length;
  lines.push(
    `${count('green')} green, ${count('yellow')} yellow, ${count('red')} red, ${count('unrecorded')} unrecorded`,
  );
  return `${lines.join('\n')}\n`;
}

/** `wildo verify [--record] [--strict]`: records contracts, or checks the backend still answers them. */
export async function runVerify(
  options: ContractCommandOptions & { record: boolean; strict: boolean },
  output: CliOutput,
  style: CliStyle,
): Promise<number> {
  let loaded: Loaded;
  let runner: ContractRunner;
  let contracts: ContractFile | undefined;
  try {
    loaded = await loadDeclarations(options);
    contracts = await readContracts(loaded.contractFile);
    runner = await openContractRunner({
      application: loaded.application,
      env: options.env,
      logger: createSilentLogger(),
    });
  } catch (error) {
    output.err(`wildo verify: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
  try {
    if (options.record)
      return await record(runner, contracts ?? { capabilities: {} }, loaded.contractFile, output, style);
    if (!contracts) {
      output.err(`wildo verify: no contract recorded at ${loaded.contractFile}; run wildo verify --record first.`);
      return 1;
    }
    const { checks } = await checkAll(runner, contracts, style);
    output.out(options.json ? toCanonicalJson({ checks }) : renderChecks(checks, loaded.contractFile, style));
    const red = checks.some((c) => c.status === 'red');
    const yellow = checks.some((c) => c.status === 'yellow');
    return red || (options.strict && yellow) ? 1 : 0;
  } finally {
    await runner.close();
  }
}

async function record(
  runner: ContractRunner,
  contracts: ContractFile,
  file: string,
  output: CliOutput,
  style: CliStyle,
  only?: ReadonlySet<string>,
): Promise<number> {
  const next: ContractFile = { capabilities: { ...contracts.capabilities } };
  const lines: string[] = [];
  let failed = 0;
  const selected = runner.capabilities.filter((c) => !only || only.has(c.id));
  let done = 0;
  for (const capability of selected) {
    style.progress(++done, selected.length, capability.id);
    const entry: ContractEntry = next.capabilities[capability.id] ?? { input: null };
    next.capabilities[capability.id] = entry;
    if (entry.input === null && capability.operation.inputSchema?.safeParse({}).success === false) {
      failed += 1;
      lines.push(
        `  skipped   ${capability.id}  no fixture input: set capabilities["${capability.id}"].input in ${file}`,
      );
      continue;
    }
    const setup = runner.setupProblems.get(capability.id);
    try {
      if (setup) throw new Error(setup.join('; '));
      const { answer } = await runner.call(capability, entry);
      entry.answer = fingerprint(answer);
      const tables = runner.tables(capability);
      if (tables) entry.rls = tables.map((t) => ({ table: t.name, policies: t.policies }));
      lines.push(`  recorded  ${capability.id}  ${entry.answer.length} paths`);
    } catch (error) {
      failed += 1;
      lines.push(
        `  ${style.red('failed')}    ${capability.id}  ${error instanceof Error && setup ? error.message : callFailure(error)}`,
      );
    }
  }
  await writeFile(file, toCanonicalJson(next));
  output.out(`Recorded into ${file}\n${lines.join('\n')}\n`);
  return failed > 0 ? 1 : 0;
}

/** Scripted answers of `wildo adopt --answers`: per capability and gained path, yes with a description, or no. */
export type AdoptionAnswers = Record<string, Record<string, { adopt: boolean; description?: string }>>;

/** `wildo adopt`: shows each gained field with its proposed declaration, asks, writes what a person accepted. */
export async function runAdopt(
  options: ContractCommandOptions & { answers?: string; prompt?: Prompt },
  output: CliOutput,
  style: CliStyle,
): Promise<number> {
  let loaded: Loaded;
  let runner: ContractRunner;
  let contracts: ContractFile | undefined;
  let scripted: AdoptionAnswers | undefined;
  try {
    loaded = await loadDeclarations(options);
    if (!loaded.manifestDir) throw new Error('adopt writes manifest declarations: pass --manifest <dir>');
    contracts = await readContracts(loaded.contractFile);
    if (!contracts) throw new Error(`no contract recorded at ${loaded.contractFile}; run wildo verify --record first`);
    if (options.answers)
      scripted = JSON.parse(await readFile(path.resolve(options.cwd, options.answers), 'utf8')) as AdoptionAnswers;
    runner = await openContractRunner({
      application: loaded.application,
      env: options.env,
      logger: createSilentLogger(),
    });
  } catch (error) {
    output.err(`wildo adopt: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
  try {
    const { checks } = await checkAll(runner, contracts, style);
    const gained = checks
      .filter((c) => c.gained.length > 0)
      .map((c) => ({ capability: c.capability, fields: c.gained }));
    if (gained.length === 0) {
      output.out('No gained fields: nothing to adopt.\n');
      return 0;
    }
    const { proposals, refusals } = await proposeAdoptions(loaded.manifestDir as string, gained);
    for (const refusal of refusals)
      output.out(`  ${style.yellow('not proposed')}  ${refusal.capability}  ${refusal.path}: ${refusal.reason}\n`);
    const accepted: { proposal: AdoptionProposal; description: string }[] = [];
    let unanswered = 0;
    for (const proposal of proposals) {
      output.out(
        `${proposal.capability} gained ${proposal.path}: declare ${proposal.resource}.${proposal.field} (${proposal.type}, optional), mapped from ${proposal.mapping}\n`,
      );
      const answer = await answerFor(proposal, scripted, options.prompt);
      if (answer === undefined) unanswered += 1;
      else if (answer.adopt) accepted.push({ proposal, description: answer.description });
    }
    if (unanswered > 0) {
      output.err(
        `wildo adopt: ${unanswered} field(s) got no answer (no terminal, and no --answers file): nothing was written.`,
      );
      return 1;
    }
    if (accepted.length === 0) {
      output.out('Nothing adopted.\n');
      return 0;
    }
    const written = await adoptFields(accepted);
    // The contract is recorded again for what was adopted, so the next verify compares against the new answer.
    const rerun = await openContractRunner({
      application: (await loadDeclarations(options)).application,
      env: options.env,
      logger: createSilentLogger(),
    });
    try {
      const adopted = new Set(accepted.map((a) => a.proposal.capability));
      await record(rerun, contracts, loaded.contractFile, output, style, adopted);
    } finally {
      await rerun.close();
    }
    output.out(
      `Adopted ${accepted.length} field(s); wrote ${written.map((f) => path.relative(options.cwd, f)).join(', ')}\n`,
    );
    return 0;
  } finally {
    await runner.close();
  }
}

async function answerFor(
  proposal: AdoptionProposal,
  scripted: AdoptionAnswers | undefined,
  prompt: Prompt | undefined,
): Promise<{ adopt: boolean; description: string } | undefined> {
  if (scripted) {
    const answer = scripted[proposal.capability]?.[proposal.path];
    if (!answer) return undefined;
    if (!answer.adopt) return { adopt: false, description: '' };
    const description = answer.description?.trim();
    return description ? { adopt: true, description } : undefined;
  }
  if (!prompt) return undefined;
  const yes = (await prompt(`Declare ${proposal.field}? [y/N] `))?.trim().toLowerCase();
  if (yes === undefined) return undefined;
  if (yes !== 'y' && yes !== 'yes') return { adopt: false, description: '' };
  const description = (await prompt(`Describe ${proposal.field} for the people and models who read it: `))?.trim();
  return description ? { adopt: true, description } : undefined;
}
