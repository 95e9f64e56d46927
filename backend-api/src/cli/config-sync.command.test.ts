import { readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  configSource,
  createTempProject,
  validConfigFixture,
  type ConfigFixture,
  type TempProject,
} from '../engine/config/config.fixtures.js';
import { codingConfigFixture } from '../engine/agents/coding/coding.fixtures.js';
import { GENERATED_FILES } from '../engine/config/index.js';
import { runWildoCli } from './wildo.cli.js';

const projects: TempProject[] = [];

async function project(config: unknown = validConfigFixture()): Promise<TempProject> {
  const created = await createTempProject(configSource(config));
  projects.push(created);
  return created;
}

function sync(p: TempProject, ...extra: string[]) {
  return runWildoCli(['config', 'sync', '--root', p.rootDir, ...extra]);
}

afterEach(async () => {
  await Promise.all(projects.splice(0).map((p) => p.cleanup()));
});

describe('wildo config sync', () => {
  it('generates the three files from a valid configuration', async () => {
    const p = await project();
    const result = await sync(p);
    expect(result).toMatchObject({ exitCode: 0, stderr: '' });
    expect(await p.listGenerated()).toEqual(['provider-catalog.types.ts', 'runtime.env', 'runtime.json']);
  });

  it('finds the project root by searching upward from the working directory', async () => {
    const p = await project();
    const result = await runWildoCli(['config', 'sync'], { cwd: path.join(p.rootDir, '.wildo-saas') });
    expect(result.exitCode).toBe(0);
    expect(await p.listGenerated()).toHaveLength(3);
  });

  it('produces byte-identical output on a second run and does not rewrite the files', async () => {
    const p = await project();
    await sync(p);
    const file = path.join(p.rootDir, GENERATED_FILES.runtimeJson);
    const before = { text: await readFile(file, 'utf8'), mtime: (await stat(file)).mtimeMs };
    await new Promise((resolve) => setTimeout(resolve, 20));
    const second = await sync(p);
    expect(second.stdout).toContain('already up to date');
    expect(await readFile(file, 'utf8')).toBe(before.text);
    expect((await stat(file)).mtimeMs).toBe(before.mtime);
  });

  it('rewrites only the files whose content changed', async () => {
    const p = await project();
    await sync(p);
    const config = validConfigFixture();
    config.observability.llmObservability.sampleRate = 0.5;
    await p.writeConfig(configSource(config));
    const result = await sync(p);
    expect(result.stdout).toContain(`wrote     ${GENERATED_FILES.runtimeEnv}`);
    expect(result.stdout).toContain(`unchanged ${GENERATED_FILES.providerCatalogTypes}`);
  });

  it('leaves no temporary files behind', async () => {
    const p = await project();
    await sync(p);
    expect((await p.listGenerated()).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });
});

type Mutation = (config: ConfigFixture) => void;

const invalidCases: Array<[string, string, Mutation]> = [
  [
    'selection primary not declared in the scope',
    'providers.scopes.backend.selection.AI_LLM.primary',
    (c) => {
      c.providers.scopes.backend!.selection.AI_LLM = { primary: 'openai', whenUnavailable: [] };
    },
  ],
  [
    'whenUnavailable entry not declared in the scope',
    'providers.scopes.backend.selection.AI_LLM.whenUnavailable[0]',
    (c) => {
      c.providers.scopes.backend!.selection.AI_LLM = { primary: 'anthropic', whenUnavailable: ['openai'] };
    },
  ],
  [
    'selection for a capability that is not enabled',
    'providers.scopes.backend.selection.AI_EMBEDDINGS',
    (c) => {
      c.providers.scopes.backend!.selection.AI_EMBEDDINGS = { primary: 'anthropic', whenUnavailable: [] };
    },
  ],
  [
    'provider declaring a capability that is not enabled',
    'providers.scopes.backend.providers.posthog.engineCapabilities[0]',
    (c) => {
      c.engineCapabilities.LLM_OBSERVABILITY = { enabled: false };
    },
  ],
  [
    'provider capability the catalogue denies',
    'providers.scopes.backend.providers.anthropic.providerCapabilities[1]',
    (c) => {
      c.providers.scopes.backend!.providers.anthropic = {
        engineCapabilities: ['AI_LLM'],
        providerCapabilities: ['LLM_CHAT', 'LLM_EMBEDDINGS'],
        protocols: ['LLM_PROVIDER'],
      };
    },
  ],
  [
    'protocol the provider does not speak',
    'providers.scopes.backend.providers.anthropic.protocols[1]',
    (c) => {
      c.providers.scopes.backend!.providers.anthropic = {
        engineCapabilities: ['AI_LLM'],
        providerCapabilities: ['LLM_CHAT'],
        protocols: ['LLM_PROVIDER', 'IMAGE_PROVIDER'],
      };
    },
  ],
  [
    'provider the catalogue does not know',
    'providers.scopes.backend.providers.mistral',
    (c) => {
      c.providers.scopes.backend!.providers.mistral = {};
    },
  ],
  [
    'frontend endpoint without a frontend service',
    'runtime.endPoints.web',
    (c) => {
      c.frontendServices = {};
    },
  ],
  [
    'frontend service without an endpoint',
    'frontendServices.admin',
    (c) => {
      c.frontendServices.admin = {};
    },
  ],
  [
    'duplicate product refs',
    'products[1].ref',
    (c) => {
      c.products.push({ ref: 'team', displayName: 'Team again', scope: 'user' });
    },
  ],
  [
    'unknown key',
    'auth.dcr',
    (c) => {
      c.auth = { dcr: { enabled: true } };
    },
  ],
  [
    'CIMD allowlist without clients',
    'auth.cimd.allowedClients',
    (c) => {
      c.auth = { cimd: { policy: 'ALLOWLIST' } };
    },
  ],
  [
    'consent lifetime out of range',
    'auth.consentGrantLifetimeDays',
    (c) => {
      c.auth = { consentGrantLifetimeDays: 3651 };
    },
  ],
  [
    'endpoint URL that is not a URL',
    'runtime.endPoints.main_backend_api.publicUrl',
    (c) => {
      c.runtime.endPoints.main_backend_api = { publicUrl: 'localhost:4241' };
    },
  ],
  [
    'sample rate above 1',
    'observability.llmObservability.sampleRate',
    (c) => {
      c.observability.llmObservability.sampleRate = 2;
    },
  ],
  [
    'AI_LLM entry used for the coding transport',
    'providers.scopes.companion.providers.anthropic.engineCapabilities[0]',
    (c) => {
      Object.assign(c, codingConfigFixture());
      c.providers.scopes.companion!.providers.anthropic = {
        engineCapabilities: ['AI_LLM'],
        providerCapabilities: ['LLM_CHAT', 'CODING_AGENT'],
        protocols: ['LLM_PROVIDER', 'AGENT_CLIENT_PROTOCOL'],
      };
    },
  ],
  [
    'default execution profile not allowed in the application environment',
    'providerConfigurations.anthropic.agent_client_protocol.defaultExecutionProfileRef',
    (c) => {
      const coding = Object.assign(c, codingConfigFixture());
      coding.providerConfigurations.anthropic.agent_client_protocol.defaultExecutionProfileRef = 'production-only';
    },
  ],
  [
    'host-managed login without the host configuration',
    'providerConfigurations.anthropic.agent_client_protocol.executionProfiles.unrestricted.hostConfigurationInheritance',
    (c) => {
      const coding = Object.assign(c, codingConfigFixture());
      coding.providerConfigurations.anthropic.agent_client_protocol.executionProfiles.unrestricted.hostConfigurationInheritance =
        'NONE';
    },
  ],
];

describe('wildo config sync on an invalid configuration', () => {
  it.each(invalidCases)('reports %s at its path, exits 1 and writes nothing', async (_name, problemPath, mutate) => {
    const config = validConfigFixture();
    mutate(config);
    const p = await project(config);
    const result = await sync(p);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toMatch(new RegExp(`^${problemPath.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: \\S`, 'm'));
    expect(await p.listGenerated()).toEqual([]);
  });

  it('keeps the previous generation untouched when the configuration becomes invalid', async () => {
    const p = await project();
    await sync(p);
    const before = await readFile(path.join(p.rootDir, GENERATED_FILES.runtimeJson), 'utf8');
    const config = validConfigFixture();
    config.observability.llmObservability.sampleRate = 2;
    await p.writeConfig(configSource(config));
    expect((await sync(p)).exitCode).toBe(1);
    expect(await readFile(path.join(p.rootDir, GENERATED_FILES.runtimeJson), 'utf8')).toBe(before);
  });

  it('reports a config that throws while loading without a stack trace', async () => {
    const p = await project();
    await p.writeConfig("throw new Error('DATABASE_HOST is not set');\nexport default {};\n");
    const result = await sync(p);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain('wildo.saas.config.ts could not be loaded: Error: DATABASE_HOST is not set');
    expect(result.stderr).not.toMatch(/^\s+at /m);
    expect(await p.listGenerated()).toEqual([]);
  });

  it('reports a syntax error cleanly', async () => {
    const p = await project();
    await p.writeConfig('export default { application: { name: ;\n');
    const result = await sync(p);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain('wildo.saas.config.ts could not be loaded:');
    expect(result.stderr).not.toMatch(/^\s+at /m);
  });

  it('reports a config without a default export', async () => {
    const p = await project();
    await p.writeConfig('export const config = {};\n');
    const result = await sync(p);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain('no default export');
  });

  it('reports a missing project root', async () => {
    const p = await project();
    await writeFile(path.join(p.rootDir, 'wildo.saas.config.ts'), '');
    const result = await runWildoCli(['config', 'sync', '--root', path.join(p.rootDir, '.wildo-saas')]);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain('No wildo.saas.config.ts found in');
  });
});

describe('wildo config sync --check', () => {
  it('exits 0 when the generation on disk is fresh', async () => {
    const p = await project();
    await sync(p);
    const result = await sync(p, '--check');
    expect(result).toMatchObject({ exitCode: 0, stderr: '' });
  });

  it('exits 1 and names the missing files without writing any', async () => {
    const p = await project();
    const result = await sync(p, '--check');
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain(`missing: ${GENERATED_FILES.runtimeJson}`);
    expect(result.stderr).toContain('Run `wildo config sync`');
    expect(await p.listGenerated()).toEqual([]);
  });

  it('exits 1 and names the stale files after the configuration changed', async () => {
    const p = await project();
    await sync(p);
    const config = validConfigFixture();
    config.observability.llmObservability.captureContent = true;
    await p.writeConfig(configSource(config));
    const result = await sync(p, '--check');
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain(`stale:   ${GENERATED_FILES.runtimeEnv}`);
    expect(result.stderr).not.toContain(GENERATED_FILES.providerCatalogTypes);
  });

  it('exits 1 when a generated file was edited by hand', async () => {
    const p = await project();
    await sync(p);
    await writeFile(path.join(p.rootDir, GENERATED_FILES.runtimeEnv), 'WILDO_LLM_OBS_SAMPLE_RATE=0\n');
    expect((await sync(p, '--check')).exitCode).toBe(1);
  });
});

describe('the repository', () => {
  it('commits a generation that matches its wildo.saas.config.ts', async () => {
    const repositoryRoot = path.resolve(import.meta.dirname, '../../..');
    const result = await runWildoCli(['config', 'sync', '--check', '--root', repositoryRoot]);
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
  });
});

describe('wildo config sync with coding agents', () => {
  const fixtures = path.join(import.meta.dirname, 'config-sync.coding-agents.fixtures.ts');

  it('refuses coding agents without a profile, or with one not allowed here, naming each and the fix; writes nothing', async () => {
    const p = await project(codingConfigFixture());
    const result = await sync(p, '--app', fixtures, '--export', 'unboundCodingApplication');
    expect(result.exitCode).toBe(1);
    const lines = result.stderr.trim().split('\n');
    expect(lines[0]).toMatch(
      /^The coding agents of .* do not match wildo\.saas\.config\.ts \(2 problems\); nothing was written\.$/,
    );
    expect(lines.slice(1)).toEqual([
      'agent "coding.unbound" (module "coding") › config.executionProfileRef: a coding agent requires executionProfileRef (the authority and environment its subprocess runs under); set it to one of providerConfigurations.anthropic.agent_client_protocol.executionProfiles (unrestricted, workspace-write, read-only, short-turn, continuing, api-key, production-only)',
      'agent "coding.production" (module "coding") › config.executionProfileRef: execution profile "production-only" is not allowed in DEVELOPMENT (application.environment; its allowedApplicationEnvironments: PRODUCTION); add DEVELOPMENT there or use a profile allowed in DEVELOPMENT',
    ]);
    expect(await p.listGenerated()).toEqual([]);
    // Positive control: the same configuration with coding agents that each name an allowed profile.
    const bound = await sync(p, '--app', fixtures, '--export', 'boundCodingApplication');
    expect(bound).toMatchObject({ exitCode: 0, stderr: '' });
    expect(await p.listGenerated()).toHaveLength(3);
  });

  it('says where coding agents are checked when the project has no application', async () => {
    const p = await project(codingConfigFixture());
    const result = await sync(p);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain('No application at backend-api/src/modules/index.ts');
  });
});
