import {
  Actor_ExecutionMode,
  LLM_Model,
  LLM_Model_Applicability,
  LLMProvider_OperationKey,
  LLMProvider_ReasoningEffort,
  type FlowsActors_Agent,
} from '@wildo/shared-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { RuntimeConfiguration } from '../../config/index.js';
import type { BackendDomainModule } from '../../bootstrap/backend-domain-module.js';
import { DeclarationValidationError } from '../../resources/resources.errors.js';
import { catalogueModelResolver } from './agent-model-resolver.js';
import { AgentsRegistry, type AgentsRegistryOptions } from './agents-registry.service.js';
import {
  actor,
  actorSystem,
  applicationOf,
  flowsModule,
  functionTool,
  imageAgent,
  languageAgent,
  loadGeneratedRuntime,
  withLanguageModelsDisabled,
  withOpenAIChat,
  withOpenAIImages,
} from './agents-registry.fixtures.js';
import { MODEL_CATALOGUE, type ModelCatalogue } from '../providers/model-catalogue.js';

/** The first line `DeclarationValidationError` prints for one problem; each problem follows as `  - declaration › path: message`. */
const ONE_PROBLEM = "The application's declarations are invalid (1 problem):\n  - ";

/** The generated runtime.json: anthropic serves AI_LLM, openai serves AI_EMBEDDINGS only. */
let generated: RuntimeConfiguration;
/** The generated runtime with openai also serving AI_LLM. */
let openAIChat: RuntimeConfiguration;

beforeAll(async () => {
  generated = await loadGeneratedRuntime();
  openAIChat = withOpenAIChat(generated);
});

interface RegisterOptions extends AgentsRegistryOptions {
  runtime?: RuntimeConfiguration;
  catalogue?: ModelCatalogue;
}

function register(modules: BackendDomainModule[], options: RegisterOptions = {}): AgentsRegistry {
  const { runtime = generated, catalogue = MODEL_CATALOGUE, ...registryOptions } = options;
  return new AgentsRegistry(applicationOf(...modules), runtime, catalogueModelResolver(catalogue), registryOptions);
}

/** The error registration is refused with (fails the test when registration succeeds or throws anything else). */
function refusal(modules: BackendDomainModule[], options: RegisterOptions = {}): DeclarationValidationError {
  try {
    register(modules, options);
  } catch (error) {
    if (error instanceof DeclarationValidationError) return error;
    throw error;
  }
  throw new Error('expected registration to be refused');
}

const support = (...agents: FlowsActors_Agent[]) => flowsModule('support', { agents });

describe('the generated runtime configuration these tests start from', () => {
  it('has anthropic serving AI_LLM and openai serving AI_EMBEDDINGS only; the variant adds AI_LLM to openai', () => {
    const backend = generated.providers.scopes.backend.providers;
    expect(backend.anthropic?.engineCapabilities).toEqual(['AI_LLM']);
    expect(backend.openai?.engineCapabilities).toEqual(['AI_EMBEDDINGS']);
    expect(openAIChat.providers.scopes.backend.providers.openai?.engineCapabilities).toEqual([
      'AI_EMBEDDINGS',
      'AI_LLM',
    ]);
    expect(
      openAIChat.providers.scopes.backend.selection.AI_LLM?.candidates.map((candidate) => candidate.provider),
    ).toEqual(['anthropic', 'openai']);
  });
});

describe('AgentsRegistry refuses, one fault at a time', () => {
  it('a provider mismatch between config and operationDefinition', () => {
    const error = refusal([
      support(
        languageAgent({
          ref: 'support-chat',
          modelApplicability: LLM_Model_Applicability.CONVERSATION,
          operationDefinition: { providerRef: 'openai' },
        }),
      ),
    ]);
    expect(error.message).toBe(
      ONE_PROBLEM +
        'agent "support-chat" (module "support") › operationDefinition.providerRef: "openai" differs from config.providerRef "anthropic"; name the same provider in both',
    );
    expect(error.problems).toHaveLength(1);

    const registry = register([
      support(languageAgent({ ref: 'support-chat', modelApplicability: LLM_Model_Applicability.CONVERSATION })),
    ]);
    expect(registry.agent('support-chat')).toMatchObject({
      providerRef: 'anthropic',
      model: 'claude-sonnet-5',
      vendorModelId: 'claude-sonnet-5',
    });
  });

  it('an operation mismatch between config and operationDefinition', () => {
    const error = refusal([
      support(
        languageAgent({
          ref: 'support-chat',
          modelApplicability: LLM_Model_Applicability.CONVERSATION,
          operationDefinition: { operationKey: LLMProvider_OperationKey.GENERATE_STRUCTURED },
        }),
      ),
    ]);
    expect(error.message).toBe(
      ONE_PROBLEM +
        'agent "support-chat" (module "support") › operationDefinition.operationKey: "GENERATE_STRUCTURED" differs from config.operationKey "CHAT_COMPLETION"; declare the same operation in both',
    );

    const registry = register([
      support(
        languageAgent({
          ref: 'todo-writer',
          operationKey: LLMProvider_OperationKey.GENERATE_STRUCTURED,
          modelApplicability: LLM_Model_Applicability.STRUCTURED_AUTHORING,
        }),
      ),
    ]);
    expect(registry.agent('todo-writer')).toMatchObject({
      operationKey: 'GENERATE_STRUCTURED',
      model: 'claude-sonnet-5',
    });
  });

  it('both model and modelApplicability', () => {
    const error = refusal([
      support(
        languageAgent({
          ref: 'support-chat',
          model: LLM_Model.CLAUDE_SONNET_5,
          modelApplicability: LLM_Model_Applicability.CONVERSATION,
        }),
      ),
    ]);
    expect(error.message).toBe(
      ONE_PROBLEM +
        'agent "support-chat" (module "support") › config: author exactly one of model (a pinned model) or modelApplicability (a class the provider resolves)',
    );

    const registry = register([support(languageAgent({ ref: 'support-chat', model: LLM_Model.CLAUDE_SONNET_5 }))]);
    expect(registry.agent('support-chat')).toMatchObject({
      model: 'claude-sonnet-5',
      vendorModelId: 'claude-sonnet-5',
    });
  });

  it('neither model nor modelApplicability', () => {
    const error = refusal([support(languageAgent({ ref: 'support-chat' }))]);
    expect(error.message).toBe(
      ONE_PROBLEM +
        'agent "support-chat" (module "support") › config: author exactly one of model (a pinned model) or modelApplicability (a class the provider resolves)',
    );

    const registry = register([
      support(languageAgent({ ref: 'support-chat', modelApplicability: LLM_Model_Applicability.FAST_CLASSIFICATION })),
    ]);
    expect(registry.agent('support-chat')).toMatchObject({ model: 'claude-haiku-5', vendorModelId: 'claude-haiku-5' });
  });

  it('a model class the provider cannot serve, without substituting another class or model', () => {
    // A catalogue in which anthropic resolves no FAST_CLASSIFICATION class (as a provider without a small model would).
    const anthropic = MODEL_CATALOGUE.anthropic!;
    const { [LLM_Model_Applicability.FAST_CLASSIFICATION]: _fast, ...classModels } = anthropic.classModels;
    const catalogue: ModelCatalogue = { ...MODEL_CATALOGUE, anthropic: { ...anthropic, classModels } };

    const error = refusal(
      [support(languageAgent({ ref: 'triage', modelApplicability: LLM_Model_Applicability.FAST_CLASSIFICATION }))],
      { catalogue },
    );
    expect(error.message).toBe(
      ONE_PROBLEM +
        'agent "triage" (module "support") › config: Provider "anthropic" cannot serve applicability class FAST_CLASSIFICATION for CHAT_COMPLETION; no other class is substituted. ' +
        'Choose a class it serves (STRUCTURED_AUTHORING, CONVERSATION) or pin a model ("claude-opus-5", "claude-sonnet-5", "claude-haiku-5").',
    );

    const registry = register(
      [support(languageAgent({ ref: 'triage', modelApplicability: LLM_Model_Applicability.CONVERSATION }))],
      { catalogue },
    );
    expect(registry.agent('triage')).toMatchObject({ model: 'claude-sonnet-5', vendorModelId: 'claude-sonnet-5' });
  });

  it('a model the provider cannot serve, without substituting one it does', () => {
    const error = refusal(
      [support(languageAgent({ ref: 'support-chat', providerRef: 'openai', model: LLM_Model.CLAUDE_SONNET_5 }))],
      { runtime: openAIChat },
    );
    expect(error.message).toBe(
      ONE_PROBLEM +
        'agent "support-chat" (module "support") › config: Provider "openai" does not serve model "claude-sonnet-5" (it is a "anthropic" model; to use it, set providerRef to "anthropic"). ' +
        'Models "openai" serves for CHAT_COMPLETION: "gpt-5", "gpt-5-mini". ' +
        'Or replace model with modelApplicability (STRUCTURED_AUTHORING, CONVERSATION, FAST_CLASSIFICATION) to let "openai" choose.',
    );

    const registry = register(
      [support(languageAgent({ ref: 'support-chat', providerRef: 'openai', model: LLM_Model.GPT_5 }))],
      { runtime: openAIChat },
    );
    expect(registry.agent('support-chat')).toMatchObject({
      providerRef: 'openai',
      model: 'gpt-5',
      vendorModelId: 'gpt-5',
    });
  });

  it('a pinned model of another vendor', () => {
    const error = refusal([support(languageAgent({ ref: 'support-chat', model: LLM_Model.GPT_5_MINI }))]);
    expect(error.message).toBe(
      ONE_PROBLEM +
        'agent "support-chat" (module "support") › config: Provider "anthropic" does not serve model "gpt-5-mini" (it is a "openai" model; to use it, set providerRef to "openai"). ' +
        'Models "anthropic" serves for CHAT_COMPLETION: "claude-opus-5", "claude-sonnet-5", "claude-haiku-5". ' +
        'Or replace model with modelApplicability (STRUCTURED_AUTHORING, CONVERSATION, FAST_CLASSIFICATION) to let "anthropic" choose.',
    );

    const registry = register([support(languageAgent({ ref: 'support-chat', model: LLM_Model.CLAUDE_HAIKU_5 }))]);
    expect(registry.agent('support-chat')).toMatchObject({ model: 'claude-haiku-5', vendorModelId: 'claude-haiku-5' });
  });

  it('reasoningEffort on a pinned model that does not support it', () => {
    const error = refusal([
      support(
        languageAgent({
          ref: 'triage',
          model: LLM_Model.CLAUDE_HAIKU_5,
          reasoningEffort: LLMProvider_ReasoningEffort.LOW,
        }),
      ),
    ]);
    expect(error.message).toBe(
      ONE_PROBLEM +
        'agent "triage" (module "support") › config: Model "claude-haiku-5" does not support reasoningEffort. ' +
        'Remove reasoningEffort, or pin a model of "anthropic" that supports it: "claude-opus-5", "claude-sonnet-5".',
    );

    const registry = register([
      support(
        languageAgent({
          ref: 'triage',
          model: LLM_Model.CLAUDE_SONNET_5,
          reasoningEffort: LLMProvider_ReasoningEffort.LOW,
        }),
      ),
    ]);
    expect(registry.agent('triage')).toMatchObject({ model: 'claude-sonnet-5', vendorModelId: 'claude-sonnet-5' });
  });

  it('reasoningEffort on the model a class resolves to, when that model does not support it', () => {
    const error = refusal([
      support(
        languageAgent({
          ref: 'triage',
          modelApplicability: LLM_Model_Applicability.FAST_CLASSIFICATION,
          reasoningEffort: LLMProvider_ReasoningEffort.HIGH,
        }),
      ),
    ]);
    expect(error.message).toBe(
      ONE_PROBLEM +
        'agent "triage" (module "support") › config: Model "claude-haiku-5" (what FAST_CLASSIFICATION resolves to on "anthropic") does not support reasoningEffort. ' +
        'Remove reasoningEffort, or pin a model of "anthropic" that supports it: "claude-opus-5", "claude-sonnet-5".',
    );

    // openai's FAST_CLASSIFICATION model reasons, so the same declaration registers there.
    const registry = register(
      [
        support(
          languageAgent({
            ref: 'triage',
            providerRef: 'openai',
            modelApplicability: LLM_Model_Applicability.FAST_CLASSIFICATION,
            reasoningEffort: LLMProvider_ReasoningEffort.HIGH,
          }),
        ),
      ],
      { runtime: openAIChat },
    );
    expect(registry.agent('triage')).toMatchObject({ model: 'gpt-5-mini', vendorModelId: 'gpt-5-mini' });
  });

  it('a temperature the resolved model does not accept', () => {
    const error = refusal([
      support(languageAgent({ ref: 'support-chat', model: LLM_Model.CLAUDE_SONNET_5, temperature: 0.2 })),
    ]);
    expect(error.message).toBe(
      ONE_PROBLEM +
        'agent "support-chat" (module "support") › config: Model "claude-sonnet-5" accepts only its default temperature. Remove temperature.',
    );

    expect(
      register([support(languageAgent({ ref: 'support-chat', model: LLM_Model.CLAUDE_SONNET_5 }))]).agent(
        'support-chat',
      ),
    ).toBeDefined();
  });

  it('a function ref no module registers', () => {
    const agent = languageAgent({
      ref: 'support-chat',
      modelApplicability: LLM_Model_Applicability.CONVERSATION,
      capabilities: { tools: { functionRefs: ['create-todo'] } },
    });
    const error = refusal([support(agent)]);
    expect(error.message).toBe(
      ONE_PROBLEM +
        'agent "support-chat" (module "support") › capabilities.tools.functionRefs[0]: no function tool "create-todo" is registered; add it to a module\'s flowsActors.functionTools',
    );

    const registry = register([support(agent), flowsModule('todos', { functionTools: [functionTool('create-todo')] })]);
    expect(registry.agent('support-chat')?.model).toBe('claude-sonnet-5');
    expect(registry.tool('create-todo')?.functionRef).toBe('create-todo');
  });

  it('a language provider that does not serve AI_LLM in the runtime scope', () => {
    const agent = languageAgent({
      ref: 'support-chat',
      providerRef: 'openai',
      modelApplicability: LLM_Model_Applicability.CONVERSATION,
    });
    const error = refusal([support(agent)]);
    expect(error.message).toBe(
      ONE_PROBLEM +
        'agent "support-chat" (module "support") › config.providerRef: provider "openai" does not serve AI_LLM in the backend runtime scope (its engineCapabilities: AI_EMBEDDINGS); ' +
        'add AI_LLM (provider capability LLM_CHAT, protocol LLM_PROVIDER) to it in wildo.saas.config.ts and run wildo config sync',
    );

    const registry = register([support(agent)], { runtime: openAIChat });
    expect(registry.agent('support-chat')).toMatchObject({
      providerRef: 'openai',
      model: 'gpt-5',
      vendorModelId: 'gpt-5',
    });
  });

  it('a language agent when the AI_LLM engine capability is disabled', () => {
    const agent = languageAgent({ ref: 'support-chat', modelApplicability: LLM_Model_Applicability.CONVERSATION });
    const error = refusal([support(agent)], { runtime: withLanguageModelsDisabled(generated) });
    expect(error.message).toBe(
      ONE_PROBLEM +
        'agent "support-chat" (module "support") › config.providerRef: engine capability AI_LLM is disabled; set engineCapabilities.AI_LLM.enabled to true in wildo.saas.config.ts and run wildo config sync',
    );

    expect(register([support(agent)]).agent('support-chat')).toBeDefined();
  });

  it('an image agent whose provider does not declare IMAGE_GENERATION', () => {
    const error = refusal([flowsModule('illustrations', { agents: [imageAgent('todo-illustrator')] })]);
    expect(error.message).toBe(
      ONE_PROBLEM +
        'agent "todo-illustrator" (module "illustrations") › config.providerRef: provider "openai" does not serve IMAGE_GENERATION in the backend runtime scope (its providerCapabilities: LLM_EMBEDDINGS); ' +
        'add IMAGE_GENERATION (protocol IMAGE_PROVIDER) to it in wildo.saas.config.ts and run wildo config sync, or use a provider that serves images',
    );

    const registry = register([flowsModule('illustrations', { agents: [imageAgent('todo-illustrator')] })], {
      runtime: withOpenAIImages(generated),
    });
    expect(registry.agent('todo-illustrator')).toMatchObject({
      operationKey: 'GENERATE_IMAGE',
      model: 'gpt-image-1.5',
      vendorModelId: 'gpt-image-1.5',
    });
  });

  it('an agent ref registered twice', () => {
    const chat = (ref: string) => languageAgent({ ref, modelApplicability: LLM_Model_Applicability.CONVERSATION });
    const error = refusal([support(chat('support-chat')), flowsModule('billing', { agents: [chat('support-chat')] })]);
    expect(error.message).toBe(
      ONE_PROBLEM +
        'agent "support-chat" (module "billing") › ref: registered twice (first by module "support"); each ref names one agent, rename one of them',
    );

    const registry = register([
      support(chat('support-chat')),
      flowsModule('billing', { agents: [chat('billing-chat')] }),
    ]);
    expect([registry.agent('support-chat')?.model, registry.agent('billing-chat')?.model]).toEqual([
      'claude-sonnet-5',
      'claude-sonnet-5',
    ]);
  });

  it('an mcpRef naming an external MCP server that is not configured', () => {
    const agent = languageAgent({
      ref: 'support-chat',
      modelApplicability: LLM_Model_Applicability.CONVERSATION,
      capabilities: { tools: { mcpRefs: ['docs'] } },
    });
    expect(refusal([support(agent)]).message).toBe(
      ONE_PROBLEM +
        'agent "support-chat" (module "support") › capabilities.tools.mcpRefs[0]: no external MCP server "docs" is configured; pass it in createWildoBackend({ externalMcpServers })',
    );
    expect(refusal([support(agent)], { externalMcpServerRefs: ['github'] }).message).toBe(
      ONE_PROBLEM +
        'agent "support-chat" (module "support") › capabilities.tools.mcpRefs[0]: no external MCP server "docs" is configured (configured: "github"); pass it in createWildoBackend({ externalMcpServers })',
    );

    const registry = register([support(agent)], { externalMcpServerRefs: ['github', 'docs'] });
    expect(registry.agent('support-chat')?.declaration.capabilities?.tools?.mcpRefs).toEqual(['docs']);
  });

  it('an actor system whose AGENTIC actor names an unknown agent', () => {
    const assistant = flowsModule('assistant', {
      flowActorSystemsFactoryMap: {
        'todo-assistant': () => actorSystem('todo-assistant', [actor('helper', 'support-chat')]),
      },
    });
    const error = refusal([assistant]);
    expect(error.message).toBe(
      ONE_PROBLEM +
        'system "todo-assistant" (module "assistant") › actors[0].agentRef: no agent "support-chat" is registered; add it to a module\'s flowsActors.agents',
    );

    const registry = register([
      support(languageAgent({ ref: 'support-chat', modelApplicability: LLM_Model_Applicability.CONVERSATION })),
      assistant,
    ]);
    expect(registry.system('todo-assistant')?.ref).toBe('todo-assistant');
    expect(registry.listSystems().map((system) => system.ref)).toEqual(['todo-assistant']);
  });

  it('an actor system whose AGENTIC actor names a structured-output agent', () => {
    const writer = languageAgent({
      ref: 'todo-writer',
      operationKey: LLMProvider_OperationKey.GENERATE_STRUCTURED,
      modelApplicability: LLM_Model_Applicability.STRUCTURED_AUTHORING,
    });
    const systemNaming = (agentRef: string) =>
      flowsModule('assistant', {
        flowActorSystemsFactoryMap: {
          'todo-assistant': () => actorSystem('todo-assistant', [actor('helper', agentRef)]),
        },
      });
    const error = refusal([support(writer), systemNaming('todo-writer')]);
    expect(error.message).toBe(
      ONE_PROBLEM +
        'system "todo-assistant" (module "assistant") › actors[0].agentRef: agent "todo-writer" performs GENERATE_STRUCTURED, but AGENTIC actor "helper" converses; name a CHAT_COMPLETION agent',
    );

    const chat = languageAgent({ ref: 'support-chat', modelApplicability: LLM_Model_Applicability.CONVERSATION });
    expect(register([support(writer, chat), systemNaming('support-chat')]).system('todo-assistant')).toBeDefined();
  });

  it('an actor system whose AGENTIC actor names an image agent', () => {
    const error = refusal(
      [
        flowsModule('assistant', {
          agents: [imageAgent('todo-illustrator')],
          flowActorSystemsFactoryMap: { studio: () => actorSystem('studio', [actor('artist', 'todo-illustrator')]) },
        }),
      ],
      {
        runtime: withOpenAIImages(generated),
      },
    );
    expect(error.message).toBe(
      ONE_PROBLEM +
        'system "studio" (module "assistant") › actors[0].agentRef: agent "todo-illustrator" performs GENERATE_IMAGE, but AGENTIC actor "artist" converses; name a CHAT_COMPLETION agent',
    );

    // A SCRIPTED actor does not converse: it may name any registered agent.
    const registry = register(
      [
        flowsModule('assistant', {
          agents: [imageAgent('todo-illustrator')],
          flowActorSystemsFactoryMap: {
            studio: () => actorSystem('studio', [actor('artist', 'todo-illustrator', Actor_ExecutionMode.SCRIPTED)]),
          },
        }),
      ],
      { runtime: withOpenAIImages(generated) },
    );
    expect(registry.system('studio')).toBeDefined();
  });

  it('an actor system whose AGENTIC actor names no agent', () => {
    const systemWith = (executionMode: Actor_ExecutionMode) =>
      flowsModule('assistant', {
        flowActorSystemsFactoryMap: {
          'todo-assistant': () => actorSystem('todo-assistant', [actor('helper', undefined, executionMode)]),
        },
      });
    expect(refusal([systemWith(Actor_ExecutionMode.AGENTIC)]).message).toBe(
      ONE_PROBLEM +
        'system "todo-assistant" (module "assistant") › actors[0].agentRef: AGENTIC actor "helper" names no agent; set agentRef to a CHAT_COMPLETION agent of a module\'s flowsActors.agents',
    );

    expect(register([systemWith(Actor_ExecutionMode.SCRIPTED)]).system('todo-assistant')).toBeDefined();
  });

  it('a system ref registered twice', () => {
    const systemIn = (module: string, ref: string) =>
      flowsModule(module, { flowActorSystemsFactoryMap: { [ref]: () => actorSystem(ref, []) } });
    expect(refusal([systemIn('assistant', 'todo-assistant'), systemIn('billing', 'todo-assistant')]).message).toBe(
      ONE_PROBLEM +
        'system "todo-assistant" (module "billing") › ref: registered twice (first by module "assistant"); each ref names one system, rename one of them',
    );

    expect(
      register([systemIn('assistant', 'todo-assistant'), systemIn('billing', 'billing-assistant')]).listSystems(),
    ).toHaveLength(2);
  });

  it('a function tool with an empty functionRef', () => {
    expect(refusal([flowsModule('todos', { functionTools: [functionTool('  ')] })]).message).toBe(
      ONE_PROBLEM +
        'function tool #0 (module "todos") › functionRef: is empty; give the tool a functionRef (the name agents list in capabilities.tools.functionRefs)',
    );

    expect(
      register([flowsModule('todos', { functionTools: [functionTool('create-todo')] })]).tool('create-todo'),
    ).toBeDefined();
  });

  it('a function tool whose inputSchema is not a Zod object', () => {
    expect(refusal([flowsModule('todos', { functionTools: [functionTool('create-todo', z.string())] })]).message).toBe(
      ONE_PROBLEM +
        'function tool "create-todo" (module "todos") › inputSchema: is a Zod string schema; declare it with z.object({ ... }): a tool\'s arguments are one object',
    );
    const jsonSchema = { type: 'object', properties: { title: { type: 'string' } } };
    expect(refusal([flowsModule('todos', { functionTools: [functionTool('create-todo', jsonSchema)] })]).message).toBe(
      ONE_PROBLEM +
        'function tool "create-todo" (module "todos") › inputSchema: is not a Zod schema; declare it with z.object({ ... }): a tool\'s arguments are one object',
    );

    const registry = register([
      flowsModule('todos', {
        functionTools: [functionTool('create-todo', z.strictObject({ title: z.string().min(1) }))],
      }),
    ]);
    expect(registry.tool('create-todo')).toBeDefined();
  });

  it('a function ref registered twice', () => {
    expect(
      refusal([
        flowsModule('todos', { functionTools: [functionTool('create-todo')] }),
        flowsModule('billing', { functionTools: [functionTool('create-todo')] }),
      ]).message,
    ).toBe(
      ONE_PROBLEM +
        'function tool "create-todo" (module "billing") › functionRef: registered twice (first by module "todos"); each ref names one tool, rename one of them',
    );

    const registry = register([
      flowsModule('todos', { functionTools: [functionTool('create-todo')] }),
      flowsModule('billing', { functionTools: [functionTool('create-invoice')] }),
    ]);
    expect([registry.tool('create-todo'), registry.tool('create-invoice')].every(Boolean)).toBe(true);
  });
});

describe('AgentsRegistry model resolution', () => {
  it('resolves modelApplicability to one concrete model at registration', () => {
    const registry = register(
      [
        support(
          languageAgent({ ref: 'triage', modelApplicability: LLM_Model_Applicability.FAST_CLASSIFICATION }),
          languageAgent({
            ref: 'todo-writer',
            operationKey: LLMProvider_OperationKey.GENERATE_STRUCTURED,
            modelApplicability: LLM_Model_Applicability.STRUCTURED_AUTHORING,
          }),
          languageAgent({
            ref: 'openai-triage',
            providerRef: 'openai',
            modelApplicability: LLM_Model_Applicability.FAST_CLASSIFICATION,
          }),
        ),
      ],
      { runtime: openAIChat },
    );
    expect(registry.agent('triage')).toMatchObject({ model: 'claude-haiku-5', vendorModelId: 'claude-haiku-5' });
    expect(registry.agent('todo-writer')).toMatchObject({ model: 'claude-sonnet-5', vendorModelId: 'claude-sonnet-5' });
    expect(registry.agent('openai-triage')).toMatchObject({ model: 'gpt-5-mini', vendorModelId: 'gpt-5-mini' });
    // The declaration keeps the class; the resolved agent carries the model its calls use.
    expect(registry.agent('triage')?.config).toMatchObject({ modelApplicability: 'FAST_CLASSIFICATION' });
    expect(registry.agent('triage')?.config).not.toHaveProperty('model');
  });

  it('gives the adapter the vendor id, which may differ from the framework model id', () => {
    const anthropic = MODEL_CATALOGUE.anthropic!;
    const catalogue: ModelCatalogue = {
      ...MODEL_CATALOGUE,
      anthropic: {
        ...anthropic,
        models: anthropic.models.map((model) =>
          model.model === LLM_Model.CLAUDE_SONNET_5 ? { ...model, vendorModelId: 'claude-sonnet-5-20260115' } : model,
        ),
      },
    };
    const registry = register(
      [support(languageAgent({ ref: 'support-chat', modelApplicability: LLM_Model_Applicability.CONVERSATION }))],
      { catalogue },
    );
    expect(registry.agent('support-chat')).toMatchObject({
      model: 'claude-sonnet-5',
      vendorModelId: 'claude-sonnet-5-20260115',
    });
  });

  it('lists every problem of every declaration in one refusal', () => {
    const error = refusal([
      support(
        languageAgent({
          ref: 'support-chat',
          providerRef: 'openai',
          model: LLM_Model.CLAUDE_SONNET_5,
          capabilities: { tools: { functionRefs: ['create-todo'] } },
        }),
        languageAgent({ ref: 'triage' }),
      ),
    ]);
    expect(error.problems.map((problem) => `${problem.declaration} › ${problem.path}`)).toEqual([
      'agent "support-chat" (module "support") › config.providerRef',
      'agent "support-chat" (module "support") › capabilities.tools.functionRefs[0]',
      'agent "support-chat" (module "support") › config',
      'agent "triage" (module "support") › config',
    ]);
    expect(error.message.split('\n')[0]).toBe("The application's declarations are invalid (4 problems):");
  });
});

describe('catalogueModelResolver', () => {
  const resolve = catalogueModelResolver();

  it('answers with the framework model and the vendor id', () => {
    expect(resolve('anthropic', { modelApplicability: 'CONVERSATION', operationKey: 'CHAT_COMPLETION' })).toEqual({
      ok: true,
      model: 'claude-sonnet-5',
      vendorModelId: 'claude-sonnet-5',
    });
  });

  it('refuses a reasoning effort that is not one', () => {
    expect(
      resolve('anthropic', { model: 'claude-sonnet-5', operationKey: 'CHAT_COMPLETION', reasoningEffort: 'extreme' }),
    ).toEqual({
      ok: false,
      message: 'reasoningEffort "extreme" is not a reasoning effort; set one of low, medium, high or remove it.',
    });
  });

  it('refuses a provider without a catalogue, naming the ones that have one', () => {
    expect(resolve('mistral', { modelApplicability: 'CONVERSATION', operationKey: 'CHAT_COMPLETION' })).toEqual({
      ok: false,
      reason: 'provider_unknown',
      message:
        'Provider "mistral" has no model catalogue: the framework ships model adapters for "anthropic", "openai". Set providerRef to one of them.',
    });
  });
});
