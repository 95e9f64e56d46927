import type { FrameworkPackage, ResolvedScaffold } from './scaffold-options.js';

/**
 * Versions of the third-party packages a scaffolded application uses directly, the ones the framework is built and
 * tested with (`scaffold.test.ts` holds them to the workspace's): one copy of zod and inversify is shared with the
 * engine, and tsx, TypeScript and Vitest run the application's code and tests.
 */
export const THIRD_PARTY_VERSIONS = {
  zod: '4.6.7',
  inversify: '8.2.3',
  tsx: '4.23.15',
  typescript: '5.9.3',
  vitest: '4.1.12',
  '@types/node': '20.19.43',
} as const;

/** Whether a spec is a version range of the registry (else a tarball or another source, which overrides follow). */
const isRegistryRange = (spec: string) => /^[\^~]?\d/.test(spec);

/** The port a scaffolded application listens on by default. */
const PORT = 4241;

const run = (scaffold: ResolvedScaffold, script: string) =>
  scaffold.packageManager === 'npm'
    ? script === 'test' || script === 'start'
      ? `npm ${script}`
      : `npm run ${script}`
    : `pnpm ${script}`;

/** `package.json`: scripts, the framework's packages, and the tools that run TypeScript and the tests. */
export function packageJson(scaffold: ResolvedScaffold): string {
  const { frameworkSpecs: specs } = scaffold;
  const framework: FrameworkPackage[] = ['@wildo/backend-api', '@wildo/shared-lib'];
  if (scaffold.hostUi) framework.push('@wildo/frontend');
  const local = (Object.keys(specs) as FrameworkPackage[]).filter((name) => !isRegistryRange(specs[name]));
  const manifest = {
    name: scaffold.name,
    version: '0.1.0',
    private: true,
    type: 'module',
    engines: { node: '>=20.19' },
    scripts: {
      postinstall: 'wildo config sync',
      start: 'tsx src/main.ts',
      dev: 'wildo dev --entry src/main.ts',
      check: 'wildo check --app src/application.ts',
      exposure: 'wildo exposure --app src/application.ts',
      pretest: 'wildo config sync --check',
      test: 'tsc --noEmit && vitest run',
    },
    dependencies: {
      ...Object.fromEntries(framework.map((name) => [name, specs[name]])),
      inversify: THIRD_PARTY_VERSIONS.inversify,
      tsx: THIRD_PARTY_VERSIONS.tsx,
      zod: THIRD_PARTY_VERSIONS.zod,
    },
    devDependencies: {
      '@types/node': THIRD_PARTY_VERSIONS['@types/node'],
      typescript: THIRD_PARTY_VERSIONS.typescript,
      vitest: THIRD_PARTY_VERSIONS.vitest,
    },
    // Installed from elsewhere than the registry (tarballs): the packages' references to one another follow.
    ...(scaffold.packageManager === 'npm' && local.length > 0
      ? { overrides: Object.fromEntries(local.map((name) => [name, specs[name]])) }
      : {}),
  };
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

/** `pnpm-workspace.yaml` (pnpm only): which install scripts may run, and overrides for packages not from the registry. */
export function pnpmWorkspace(scaffold: ResolvedScaffold): string {
  const { frameworkSpecs: specs } = scaffold;
  const local = (Object.keys(specs) as FrameworkPackage[]).filter((name) => !isRegistryRange(specs[name]));
  const overrides = local.length
    ? `overrides:\n${local.map((name) => `  '${name}': '${specs[name]}'`).join('\n')}\n`
    : '';
  // esbuild's script (used by tsx and Vitest) fetches its binary; the framework's protobufjs (OpenTelemetry's exporters)
  // and @google/genai scripts only check versions, so they stay off.
  return `# pnpm runs no install script it was not told about: esbuild's (used by tsx and Vitest) is allowed.\nallowBuilds:\n  '@google/genai': false\n  esbuild: true\n  protobufjs: false\n${overrides}`;
}

/** `tsconfig.json`: strict ESM on Node, decorators for inversify's \`@injectable()\` services. */
export function tsconfig(): string {
  return `${JSON.stringify(
    {
      compilerOptions: {
        target: 'ES2023',
        lib: ['ES2023'],
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        strict: true,
        experimentalDecorators: true,
        verbatimModuleSyntax: true,
        skipLibCheck: true,
        noEmit: true,
        types: ['node'],
      },
      include: ['src', 'wildo.saas.config.ts', '.wildo-saas/generated/*.ts'],
    },
    null,
    2,
  )}\n`;
}

/** `wildo.saas.config.ts`: the application's name and environment, the LLM capability on Anthropic, auth and endpoints. */
export function saasConfig(scaffold: ResolvedScaffold): string {
  return `// The application's configuration. After a change run \`wildo config sync\` (installs run it too): the backend
// refuses to start on a stale .wildo-saas/generated.
import { APPLICATION_ENVIRONMENT, CimdTrustPolicy, defineSaaSConfig, defineSaaSProviders, EngineCapability } from '@wildo/shared-lib';
import type { WildoDiscoveredProviderCatalog } from './.wildo-saas/generated/provider-catalog.types.js';

export default defineSaaSConfig({
  application: { name: '${scaffold.name}', environment: APPLICATION_ENVIRONMENT.DEVELOPMENT },
  // The assistant's model: absent at run time until ANTHROPIC_API_KEY is set (everything else runs without it).
  engineCapabilities: { [EngineCapability.AI_LLM]: { enabled: true } },
  providers: defineSaaSProviders<WildoDiscoveredProviderCatalog>({
    scopes: {
      backend: {
        providers: {
          anthropic: { engineCapabilities: [EngineCapability.AI_LLM], providerCapabilities: ['LLM_CHAT'], protocols: ['LLM_PROVIDER'] },
        },
        selection: { [EngineCapability.AI_LLM]: { primary: 'anthropic', whenUnavailable: [] } },
      },
    },
  }),
  auth: {
    dynamicClientRegistration: { enabled: false, maxRegistrationsPerHourPerIp: 10 },
    cimd: { policy: CimdTrustPolicy.DISABLED },
    consentGrantLifetimeDays: 180,
    accessTokenLifetimeMinutes: 15,
  },
  runtime: {
    endPoints: {
      main_backend_api: { publicUrl: 'http://localhost:${PORT}' },
      main_frontend: { publicUrl: 'http://localhost:${PORT}' },
    },
  },
  frontendServices: { main_frontend: { displayName: '${scaffold.name}', isDefault: true } },
});
`;
}

/** `src/application.ts`: the module registry. */
export function application(scaffold: ResolvedScaffold): string {
  const { module } = scaffold;
  return `import { defineBackendApplication } from '@wildo/backend-api';
import { ${module.camel}Module } from './${module.type}/${module.type}.module.js';

/** The application: only the modules listed here exist. */
export const application = defineBackendApplication({ name: '${scaffold.name}', modules: [${module.camel}Module] });
`;
}

/** `src/main.ts`: starts the application (environment, configuration, database, listener, graceful stop). */
export function main(scaffold: ResolvedScaffold): string {
  if (!scaffold.hostUi)
    return `import { createWildoServer } from '@wildo/backend-api/server';
import { application } from './application.js';

await createWildoServer(application);
`;
  return `import { createWildoServer } from '@wildo/backend-api/server';
import { HOST_UI_DIRECTORY } from '@wildo/frontend/host-ui';
import { application } from './application.js';

// The host UI (sign-up, organizations, the declared resources' pages) is served from the backend's own origin.
await createWildoServer(application, { frontendDist: HOST_UI_DIRECTORY });
`;
}

/** `src/<type>/<type>.module.ts`: a resource with CRUD, a filter and an instance operation; an assistant over it. */
export function moduleFile({ module }: ResolvedScaffold): string {
  return `import {
  CORE_ORG_ROLES,
  defineResource,
  LLM_Model,
  ResourceOperationEffect,
  ResourceOperationVariantType,
  ResourcePrimaryScope,
  resourceRecordSchema,
} from '@wildo/shared-lib';
import { defineActorSystem, defineChatAgent, type BackendDomainModule } from '@wildo/backend-api';
import { ContainerModule } from 'inversify';
import { z } from 'zod';
import { ${module.pascal}Digest } from './${module.type}-digest.service.js';

const member = { variantType: ResourceOperationVariantType.API_CALL, roles: [CORE_ORG_ROLES.ORG_MEMBER] };

/** One record: members create and edit it; only \`close\` settles it. */
export const ${module.pascal}Schema = z.object({
  title: z.string().min(1).max(200).describe('What it is about.'),
  body: z.string().max(5_000).optional(),
  status: z.enum(['open', 'closed']).default('open'),
  resolution: z.string().max(1_000).nullable().default(null),
});

/** The organization's ${module.display.toLowerCase()}: members create, read, edit, list (by status) and close them; managers delete them. */
export const ${module.camel} = defineResource({
  type: '${module.type}',
  displayName: '${module.display}',
  primaryScope: ResourcePrimaryScope.ORGANIZATIONS,
  schema: ${module.pascal}Schema,
  readOnlyFields: ['status', 'resolution'],
  customOperations: {
    close: {
      target: 'instance',
      requestSchema: z.strictObject({ resolution: z.string().min(1).max(1_000).describe('How it was settled.') }),
      responseSchema: resourceRecordSchema(${module.pascal}Schema, ResourcePrimaryScope.ORGANIZATIONS),
      effect: ResourceOperationEffect.WRITE,
      description: 'Closes one open record with its resolution.',
    },
  },
  operationsConfiguration: {
    create: { variants: [{ ...member, mcp: { exposed: true, description: 'Creates a record.' } }] },
    read: { variants: [{ ...member, mcp: { exposed: true, description: 'Reads one record by id.' } }] },
    update: { variants: [member] },
    delete: { variants: [{ ...member, roles: [CORE_ORG_ROLES.ORG_MANAGER] }] },
    list: { variants: [{ ...member, filters: ['status'], mcp: { exposed: true, description: 'Lists records by status.' } }] },
    close: { variants: [member] },
  },
});

/** The \`close\` operation: refuses a closed record, then records the resolution. */
export const ${module.camel}Service = ${module.camel}.implement({
  close: async ({ id, record, input, utils }) => {
    if (record.status === 'closed') throw utils.errorBuilder.conflict('It is already closed.');
    const closed = await utils.records.update(id, { status: 'closed', resolution: input.resolution });
    if (!closed) throw utils.errorBuilder.notFound();
    return closed;
  },
});

/** The assistant: reads records, and closes one only after the person approves. */
export const ${module.camel}Agent = defineChatAgent({
  ref: '${module.type}.chat.agent',
  provider: 'anthropic',
  model: LLM_Model.CLAUDE_SONNET_5,
  prompt: { role: 'You help members handle their ${module.display.toLowerCase()}.', instructions: ['Look a record up before closing it.'] },
  tools: [${module.camel}.tools.read(), ${module.camel}.tools.write('close', { requiresHumanApproval: true })],
  access: [{ primaryScope: ResourcePrimaryScope.ORGANIZATIONS, roles: [CORE_ORG_ROLES.ORG_MEMBER] }],
});

/** Where members talk to the assistant: \`/api/v1/organizations/:id/flows-actors/systems/${module.type}-desk/turns\`. */
export const ${module.camel}Desk = defineActorSystem({ ref: '${module.type}-desk', displayName: '${module.display}', agents: [${module.camel}Agent] });

export const ${module.camel}Module: BackendDomainModule = {
  name: '${module.type}',
  resources: [${module.camel}],
  customServiceImplementations: [${module.camel}Service],
  flowsActors: ${module.camel}Desk,
  containerModule: new ContainerModule(({ bind }) => {
    bind(${module.pascal}Digest).toSelf().inSingletonScope();
  }),
};
`;
}

/** `src/<type>/<type>-digest.service.ts`: an application service injecting the engine's agents service. */
export function digestService({ module }: ResolvedScaffold): string {
  return `import { SAAS_SERVICE_TYPES, type AgentsBackendService } from '@wildo/backend-api';
import { inject, injectable } from 'inversify';

/**
 * Application code calls agents through \`AgentsBackendService\` (\`invokeAgent\`), injected like any engine service.
 * Resolve it with \`backend.container.get(${module.pascal}Digest)\`.
 */
@injectable()
export class ${module.pascal}Digest {
  constructor(@inject(SAAS_SERVICE_TYPES.AgentsBackendService) private readonly agents: AgentsBackendService) {}

  /** Whether this service was built with the engine's agents service. */
  canInvokeAgents(): boolean {
    return typeof this.agents.invokeAgent === 'function';
  }
}
`;
}

/** `src/<type>/<type>.test.ts`: REST CRUD with the filter and the instance operation, and the assistant with a stand-in model. */
export function moduleTest({ module }: ResolvedScaffold): string {
  return `import { createSilentLogger, createWildoBackend, type WildoBackend } from '@wildo/backend-api';
import { loadStartupConfiguration } from '@wildo/backend-api/server';
import {
  decideApproval,
  describeModelRequest,
  modelToolName,
  pendingApprovalsOf,
  postTurn,
  signUpThroughOutbox,
  startStubModels,
  toolCallsReply,
  type StubModels,
} from '@wildo/backend-api/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { application } from '../application.js';
import { ${module.pascal}Digest } from './${module.type}-digest.service.js';

let models: StubModels;
let backend: WildoBackend;
let api: string;
let token: string;
let collection: string;

async function call(method: string, path: string, body?: unknown) {
  const response = await fetch(\`\${api}\${path}\`, {
    method,
    headers: { authorization: \`Bearer \${token}\`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as { data?: any; error?: any } };
}

beforeAll(async () => {
  // A stand-in model: "Close it" is answered with a call of the gated tool, anything else is echoed.
  models = await startStubModels({
    script: (request, vendor) =>
      describeModelRequest(request, vendor).lastUserText?.startsWith('Close ')
        ? toolCallsReply([
            {
              name: modelToolName('resource.${module.type}.close'),
              arguments: { id: describeModelRequest(request, vendor).lastUserText?.slice('Close '.length), resolution: 'Done' },
            },
          ])
        : undefined,
  });
  const { runtime } = await loadStartupConfiguration({}, process.cwd());
  backend = await createWildoBackend({ application, runtime, env: models.env, logger: createSilentLogger() });
  api = \`\${(await backend.listen(0)).url}/api/v1\`;
  // Sign-up mails a link; on the embedded defaults the mail waits in the development outbox.
  ({ accessToken: token } = await signUpThroughOutbox(api, { email: 'ada@example.com', password: 'a long passphrase' }));
  const organization = await call('POST', '/organizations', { name: 'Analytical Engines' });
  collection = \`/organizations/\${organization.body.data._id}/${module.type}\`;
});

afterAll(async () => {
  await backend?.close();
  await models?.close();
});

describe('${module.display.toLowerCase()}', () => {
  it('are created, read, edited, listed by status, closed and deleted', async () => {
    const created = await call('POST', collection, { title: 'First one' });
    expect(created.status).toBe(201);
    const id = created.body.data._id as string;
    expect((await call('GET', \`\${collection}/\${id}\`)).body.data).toMatchObject({ title: 'First one', status: 'open' });
    expect((await call('PUT', \`\${collection}/\${id}\`, { body: 'More detail' })).status).toBe(200);
    expect((await call('GET', \`\${collection}?status=open\`)).body.data.map((r: { _id: string }) => r._id)).toContain(id);
    const closed = await call('POST', \`\${collection}/\${id}/close\`, { resolution: 'Settled' });
    expect(closed.body.data).toMatchObject({ status: 'closed', resolution: 'Settled' });
    expect((await call('GET', \`\${collection}?status=open\`)).body.data).toEqual([]);
    expect((await call('POST', \`\${collection}/\${id}/close\`, { resolution: 'Again' })).status).toBe(409);
    expect((await call('DELETE', \`\${collection}/\${id}\`)).status).toBe(200);
  });

  it('refuse a field the schema does not declare', async () => {
    const refused = await call('POST', collection, { title: 'x', priority: 1 });
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe('VALIDATION_FAILED');
  });

  it('are closed by the assistant only after the person approves', async () => {
    const id = (await call('POST', collection, { title: 'Ask the assistant' })).body.data._id as string;
    const turns = \`\${api}\${collection.replace('/${module.type}', '')}/flows-actors/systems/${module.type}-desk/turns\`;
    const turn = await postTurn(turns, { token, message: \`Close \${id}\` });
    const [approval] = pendingApprovalsOf(turn.events);
    expect(approval).toBeDefined();
    expect((await call('GET', \`\${collection}/\${id}\`)).body.data.status).toBe('open');
    if (!approval) return;
    await decideApproval(api, { token, approval, decision: 'approve' });
    expect((await call('GET', \`\${collection}/\${id}\`)).body.data).toMatchObject({ status: 'closed', resolution: 'Done' });
  });

  it('have an application service that injects the agents service', () => {
    expect(backend.container.get(${module.pascal}Digest).canInvokeAgents()).toBe(true);
  });
});
`;
}

/** `vitest.config.ts`. */
export function vitestConfig(): string {
  return `import { defineConfig } from 'vitest/config';

export default defineConfig({ test: { include: ['src/**/*.test.ts'], testTimeout: 30_000, hookTimeout: 60_000 } });
`;
}

/** `.ci/run`: what CI runs, the README's test command. */
export function ciRun(scaffold: ResolvedScaffold): string {
  return `#!/usr/bin/env bash
# CI entry point: install, then run exactly the README's test command.
set -euo pipefail
cd "$(dirname "$0")/.."
${scaffold.packageManager} install
${run(scaffold, 'test')}
`;
}

/** `.gitignore`. */
export function gitignore(): string {
  return `node_modules/
dist/
# Runtime data of the embedded defaults (PGlite data directory, uploaded files); the generation is committed.
.wildo-saas/*
!.wildo-saas/generated/
`;
}

/** `README.md`: the two commands, then where things are. */
export function readme(scaffold: ResolvedScaffold): string {
  const { module } = scaffold;
  return `# ${scaffold.name}

A [Wildo](https://www.npmjs.com/package/@wildo/backend-api) application: one module, \`${module.type}\`, with an
assistant that closes a record only after a person approves.

## Run it

\`\`\`sh
${scaffold.packageManager} install
${run(scaffold, 'start')}
\`\`\`

It listens on \`PORT\` (default ${PORT}) on its embedded defaults: PGlite under \`.wildo-saas/data\`, in-process rate
limits, a development signing secret${scaffold.hostUi ? ', and the host UI at http://localhost:' + PORT : ''}.
\`curl http://localhost:${PORT}/api/v1/health\` answers \`{"data":{"status":"ok",...}}\`. Set \`ANTHROPIC_API_KEY\` for the
assistant, \`DATABASE_URL\` (PostgreSQL) and \`REDIS_URL\` for several replicas, \`WILDO_PRIMARY_SECRET\` before
deploying. \`${run(scaffold, 'dev')}\` restarts on changes (\`-- --stub-models\` answers turns with a stand-in model).

## Test it

\`\`\`sh
${run(scaffold, 'test')}
\`\`\`

It checks that \`.wildo-saas/generated\` matches \`wildo.saas.config.ts\`, type-checks, and runs the tests (the REST
operations and the assistant against a stand-in model). \`.ci/run\` runs the same.

## Where things are

- \`wildo.saas.config.ts\`: capabilities, providers, auth, endpoints (\`wildo config sync\` writes \`.wildo-saas/generated\`)
- \`src/application.ts\`: the module registry; \`src/main.ts\`: start-up
- \`src/${module.type}/${module.type}.module.ts\`: the resource (CRUD, a \`status\` filter, the \`close\` instance operation) and its assistant
- \`src/${module.type}/${module.type}-digest.service.ts\`: an \`@injectable()\` service injecting \`AgentsBackendService\`

${
  scaffold.hostUi
    ? `The host UI gives each resource of the module a page generated from its declaration (the list with its filters,
forms from its schema, its operations), offering a person only what their role may run; a resource added to the module
gets one too.

`
    : ''
}REST: \`/api/v1/organizations/:organizationId/${module.type}\`; MCP: \`/api/v1/mcp\` (\`${module.type}__list\`, ...);
\`${run(scaffold, 'exposure')}\` prints what each operation exposes, to whom.
`;
}
