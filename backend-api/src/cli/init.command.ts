import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { toCanonicalJson } from '../engine/config/canonical-json.js';
import {
  applyDecisions,
  CANDIDATE_EFFECTS,
  openApiCandidates,
  type CandidateDecisions,
  type CandidateEffect,
  type CapabilityCandidate,
} from '../engine/toolchain/index.js';
import type { CliOutput } from './cli.output.js';
import type { CliStyle } from './cli.style.js';
import type { Prompt } from './verify.command.js';

/** Options of `wildo init`. */
export interface InitOptions {
  cwd: string;
  /** The OpenAPI 3.0 or 3.1 description (YAML or JSON). */
  description: string;
  /** A decisions file (YAML or JSON): `{ effects: { <candidate id>: read | write | destructive | irreversible | skip } }`. */
  decisions?: string;
  /** Where the candidates are written; default `wildo.candidates.json` in the working directory. */
  out?: string;
  prompt?: Prompt;
}

/** The file `wildo init` writes by default. */
export const CANDIDATES_FILE = 'wildo.candidates.json';

function describeCandidate(candidate: CapabilityCandidate, style: CliStyle): string[] {
  const fields = (label: string, list: CapabilityCandidate['input']) =>
    list.length === 0
      ? [`      ${label}  (none)`]
      : list.map(
          (f, i) =>
            `      ${i === 0 ? label : ' '.repeat(label.length)}  ${f.path}: ${f.type}${f.required ? ' (required)' : ''}`,
        );
  return [
    `  ${style.bold(candidate.id)}  ${candidate.method} ${candidate.path}${candidate.summary ? `  ${candidate.summary}` : ''}`,
    ...fields('input ', candidate.input),
    ...fields('output', candidate.output),
  ];
}

async function readDecisions(file: string): Promise<CandidateDecisions> {
  const parsed = parseYaml(await readFile(file, 'utf8')) as { effects?: unknown } | null;
  const effects = parsed?.effects;
  if (effects === null || typeof effects !== 'object' || Array.isArray(effects))
    throw new Error(`${file} holds no effects: { effects: { <candidate id>: ${CANDIDATE_EFFECTS.join(' | ')} } }`);
  for (const [id, effect] of Object.entries(effects as Record<string, unknown>))
    if (!CANDIDATE_EFFECTS.includes(effect as CandidateEffect))
      throw new Error(`${file}: effects.${id} is "${String(effect)}"; use one of ${CANDIDATE_EFFECTS.join(', ')}`);
  return effects as CandidateDecisions;
}

/** Asks a person the effect of each candidate, one by one; undefined as soon as one goes unanswered. */
async function askEffects(
  candidates: readonly CapabilityCandidate[],
  prompt: Prompt,
): Promise<CandidateDecisions | undefined> {
  const decisions: Record<string, CandidateEffect> = {};
  for (const candidate of candidates) {
    const answer = (await prompt(`Effect of ${candidate.id} (${CANDIDATE_EFFECTS.join('/')}): `))?.trim();
    if (!answer || !CANDIDATE_EFFECTS.includes(answer as CandidateEffect)) return undefined;
    decisions[candidate.id] = answer as CandidateEffect;
  }
  return decisions;
}

/**
 * `wildo init <openapi>`: lists one candidate capability per operation; writes them once every effect is decided
 * (a decisions file, or a person on a terminal). Without decisions it writes nothing and exits 1.
 */
export async function runInit(options: InitOptions, output: CliOutput, style: CliStyle): Promise<number> {
  let candidates: CapabilityCandidate[];
  let decisions: CandidateDecisions | undefined;
  try {
    candidates = await openApiCandidates(path.resolve(options.cwd, options.description));
    if (options.decisions) decisions = await readDecisions(path.resolve(options.cwd, options.decisions));
  } catch (error) {
    output.err(`wildo init: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
  output.out(
    [
      `${candidates.length} candidate capabilities in ${options.description}`,
      ...candidates.flatMap((c) => describeCandidate(c, style)),
    ].join('\n'),
  );
  if (!decisions && options.prompt) decisions = await askEffects(candidates, options.prompt);
  if (!decisions) {
    output.err(
      "wildo init: every effect is undecided (a write's effect is a person's decision): pass --decisions <file> or run it on a terminal. Nothing was written.",
    );
    return 1;
  }
  const { decided, undecided, unknown } = applyDecisions(candidates, decisions);
  if (unknown.length > 0) {
    output.err(`wildo init: the decisions name no such candidate: ${unknown.join(', ')}. Nothing was written.`);
    return 1;
  }
  if (undecided.length > 0) {
    output.err(`wildo init: no effect decided for ${undecided.join(', ')}. Nothing was written.`);
    return 1;
  }
  const out = path.resolve(options.cwd, options.out ?? CANDIDATES_FILE);
  if (existsSync(out) && !options.out) {
    output.err(`wildo init: ${CANDIDATES_FILE} exists; pass --out <file> to write elsewhere. Nothing was written.`);
    return 1;
  }
  await writeFile(out, toCanonicalJson({ source: options.description, capabilities: decided }));
  output.out(`Wrote ${decided.length} capabilities to ${path.relative(options.cwd, out)}`);
  return 0;
}
