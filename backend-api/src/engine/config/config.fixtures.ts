// Test fixtures: small builders for configurations and throwaway project directories.
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { CONFIG_FILE_NAME, GENERATED_DIR } from './config.constants.js';

/** A plain-data configuration as a test project writes it (enum values as strings, no imports needed). */
export type ConfigFixture = Record<string, unknown> & {
  engineCapabilities: Record<string, { enabled: boolean }>;
  providers: { scopes: Record<string, { providers: Record<string, unknown>; selection: Record<string, unknown> }> };
  runtime: { endPoints: Record<string, { publicUrl: string }> };
  frontendServices: Record<string, unknown>;
  observability: { llmObservability: { captureContent: boolean; sampleRate: number } };
  products: Array<Record<string, unknown>>;
};

/** A valid configuration close to the reference application's; each call returns a fresh copy to mutate. */
export function validConfigFixture(): ConfigFixture {
  return {
    application: { name: 'Fixture Todos', environment: 'DEVELOPMENT' },
    engineCapabilities: { AI_LLM: { enabled: true }, LLM_OBSERVABILITY: { enabled: true } },
    providers: {
      scopes: {
        backend: {
          providers: {
            anthropic: {
              engineCapabilities: ['AI_LLM'],
              providerCapabilities: ['LLM_CHAT'],
              protocols: ['LLM_PROVIDER'],
            },
            posthog: {
              engineCapabilities: ['LLM_OBSERVABILITY'],
              providerCapabilities: ['LLM_OBSERVABILITY'],
              protocols: [],
            },
          },
          selection: {
            AI_LLM: { primary: 'anthropic', whenUnavailable: [] },
            LLM_OBSERVABILITY: { primary: 'posthog', whenUnavailable: [] },
          },
        },
      },
    },
    runtime: {
      endPoints: {
        main_backend_api: { publicUrl: 'http://localhost:4241' },
        web: { publicUrl: 'http://localhost:4242' },
      },
    },
    frontendServices: { web: { isDefault: true } },
    observability: { llmObservability: { captureContent: false, sampleRate: 1 } },
    products: [
      {
        ref: 'team',
        displayName: 'Team',
        scope: 'organization',
        grantedLimits: { 'a2a.token_budget.monthly': { value: 100_000, mode: 'SET' } },
      },
    ],
  };
}

/** TypeScript source for a config file exporting `config` (the annotation makes it real TypeScript). */
export function configSource(config: unknown): string {
  return `const config: Record<string, unknown> = ${JSON.stringify(config, null, 2)};\nexport default config;\n`;
}

/** A temporary project directory; `cleanup` removes it. */
export interface TempProject {
  rootDir: string;
  writeConfig(source: string): Promise<void>;
  /** The generated files present on disk, sorted (empty when the directory does not exist). */
  listGenerated(): Promise<string[]>;
  cleanup(): Promise<void>;
}

/** Creates a temporary project, optionally with a config file already written. */
export async function createTempProject(source?: string): Promise<TempProject> {
  const rootDir = await mkdtemp(path.join(os.tmpdir(), 'wildo-config-'));
  const project: TempProject = {
    rootDir,
    writeConfig: (text) => writeFile(path.join(rootDir, CONFIG_FILE_NAME), text, 'utf8'),
    listGenerated: async () => {
      try {
        return (await readdir(path.join(rootDir, GENERATED_DIR))).sort();
      } catch {
        return [];
      }
    },
    cleanup: () => rm(rootDir, { recursive: true, force: true }),
  };
  if (source !== undefined) await project.writeConfig(source);
  return project;
}
