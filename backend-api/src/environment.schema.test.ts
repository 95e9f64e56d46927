import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { BUILT_IN_PROVIDER_CATALOG } from '@wildo/shared-lib';
import { describe, expect, it } from 'vitest';
import { baseUrlEnvVar, BUILT_IN_ADAPTER_FACTORIES } from './engine/agents/providers/provider-registry.service.js';
import {
  BackendEnvironmentSchema,
  engineEnvironment,
  InvalidEnvironmentError,
  parseBackendEnvironment,
} from './environment.schema.js';

const SOURCE_DIR = import.meta.dirname;
const declared = new Set(Object.keys(BackendEnvironmentSchema.shape));

/** The non-test sources of backend-api/src (test helpers under testing/ excluded). */
function productionSources(dir = SOURCE_DIR): { file: string; text: string }[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'testing' ? [] : productionSources(file);
    if (
      !entry.name.endsWith('.ts') ||
      /\.(test|contract|fixtures)\.ts$/.test(entry.name) ||
      entry.name.endsWith('-test-schema.ts')
    )
      return [];
    return [{ file: path.relative(SOURCE_DIR, file), text: readFileSync(file, 'utf8') }];
  });
}

const matches = (text: string, pattern: RegExp) => [...text.matchAll(pattern)].map((m) => m[1]!);

/** Variables whose names the code computes: from the provider catalogue and the shipped adapters. */
const credentialVariables = Object.values(BUILT_IN_PROVIDER_CATALOG).map((entry) => entry.credentialEnvVar);
const baseUrlVariables = Object.keys(BUILT_IN_ADAPTER_FACTORIES).map(baseUrlEnvVar);

describe('the environment schema', () => {
  const sources = productionSources();
  // `export const POSTHOG_HOST_ENV = 'POSTHOG_HOST'`: names read through a constant.
  const constants = new Map(
    sources.flatMap(({ text }) =>
      [...text.matchAll(/const (\w+_ENV\w*) = '([A-Z][A-Z0-9_]*)'/g)].map((m) => [m[1]!, m[2]!] as const),
    ),
  );

  it('gives every variable a one-line description that states its default or what its absence means', () => {
    for (const [name, field] of Object.entries(BackendEnvironmentSchema.shape)) {
      const description = field.description ?? '';
      expect(description, name).toMatch(/^\S.*\.$/);
      expect(description, name).not.toContain('\n');
      expect(description, name).toMatch(/default|without|required/i);
    }
  });

  it('declares every variable the backend reads by name (process.env.X, env.X, env[CONSTANT])', () => {
    const read = new Map<string, string>();
    for (const { file, text } of sources) {
      const names = [
        ...matches(text, /process\.env\.([A-Z][A-Z0-9_]*)/g),
        ...matches(text, /\benv\.([A-Z][A-Z0-9_]+)\b/g),
        ...matches(text, /\benv\[['"]([A-Z][A-Z0-9_]*)['"]\]/g),
        ...matches(text, /\benv\[(\w+_ENV\w*)\]/g).map(
          (constant) => constants.get(constant) ?? `unresolved constant ${constant}`,
        ),
      ];
      for (const name of names) read.set(name, file);
    }
    expect(read.size).toBeGreaterThan(8);
    const undeclared = [...read]
      .filter(([name]) => !declared.has(name))
      .map(([name, file]) => `${name} (read in ${file})`);
    expect(undeclared).toEqual([]);
  });

  it('declares the variables whose names are computed: every provider credential and base URL', () => {
    expect(credentialVariables.filter((name) => !declared.has(name))).toEqual([]);
    expect(baseUrlVariables.filter((name) => !declared.has(name))).toEqual([]);
  });

  it('knows how every computed `env[...]` name is enumerated', () => {
    // A new dynamic read must be added here, with a check above that its names are declared.
    const dynamic = new Set(
      sources
        .flatMap(({ text }) => matches(text, /\benv\[([\w.]+)\]/g))
        .filter((expression) => !/_ENV\w*$/.test(expression)),
    );
    const enumerated = [...dynamic].filter(
      (expression) => !/(^|\.)credentialEnvVar$/.test(expression) && expression !== 'baseUrlVar',
    );
    expect(enumerated).toEqual([]);
    expect(dynamic.size).toBeGreaterThan(0);
  });
});

describe('parseBackendEnvironment', () => {
  it('applies the defaults and treats blank values as unset', () => {
    const env = parseBackendEnvironment({ ANTHROPIC_API_KEY: '  ', WILDO_PUBLIC_URL: '' });
    expect(env).toMatchObject({ PORT: 4241, HOST: '127.0.0.1', LOG_LEVEL: 'info' });
    expect(env.ANTHROPIC_API_KEY).toBeUndefined();
    expect(env.WILDO_PUBLIC_URL).toBeUndefined();
  });

  it('refuses an invalid public URL or port, naming the variable and never the value', () => {
    const attempt = () => parseBackendEnvironment({ WILDO_PUBLIC_URL: 'ftp://files.example.test', PORT: 'seventy' });
    expect(attempt).toThrow(InvalidEnvironmentError);
    expect(attempt).toThrow(/^The environment is invalid:\nPORT: .+\nWILDO_PUBLIC_URL: .+$/);
    expect(attempt).not.toThrow(/ftp|seventy/);
  });

  it('hands the engine only declared, text-valued variables', () => {
    const env = engineEnvironment(
      parseBackendEnvironment({
        ANTHROPIC_API_KEY: 'sk-test',
        OPENAI_BASE_URL: 'http://127.0.0.1:9/v1',
        UNRELATED_SECRET: 'x',
      }),
    );
    expect(env).toEqual({
      ANTHROPIC_API_KEY: 'sk-test',
      OPENAI_BASE_URL: 'http://127.0.0.1:9/v1',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
    });
  });
});
