// Compile-time tests of the agent helpers: checked by `tsc -p tsconfig.json` at the repository root, never run.
// Each `@ts-expect-error` line is a mistake that must not compile; the lines around it are the correct forms.
import {
  CORE_APP_ROLES,
  CORE_ORG_ROLES,
  LLM_Model,
  LLM_Model_Applicability,
  ResourcePrimaryScope,
  type RegisteredProviderCatalog,
} from '@wildo/shared-lib';
import { expectTypeOf } from 'vitest';
import type { WildoDiscoveredProviderCatalog } from '../../../../../.wildo-saas/generated/provider-catalog.types.js';
import type { FlowsActorsContribution } from './flows-actors-module.js';
import {
  defineActorSystem,
  defineChatAgent,
  type AccessRule,
  type ChatModelOf,
  type ChatProviderRef,
} from './define-agent.js';

const access: readonly AccessRule[] = [
  { primaryScope: ResourcePrimaryScope.ORGANIZATIONS, roles: [CORE_ORG_ROLES.ORG_MEMBER] },
];
const prompt = { role: 'You help.', instructions: ['Be brief.'] };

// Providers come from the generated catalogue (those offering chat), models from the provider's own list.
expectTypeOf<RegisteredProviderCatalog>().toEqualTypeOf<WildoDiscoveredProviderCatalog>();
expectTypeOf<ChatProviderRef>().toEqualTypeOf<'anthropic' | 'openai'>();
expectTypeOf<ChatModelOf<'openai'>>().toEqualTypeOf<LLM_Model.GPT_5 | LLM_Model.GPT_5_MINI>();

const agent = defineChatAgent({
  ref: 'helper.agent',
  provider: 'anthropic',
  model: LLM_Model.CLAUDE_OPUS_5,
  prompt,
  access,
});
expectTypeOf(agent.ref).toEqualTypeOf<'helper.agent'>();
defineChatAgent({ ref: 'a', provider: 'openai', model: LLM_Model.GPT_5_MINI, prompt, access });
defineChatAgent({
  ref: 'b',
  provider: 'openai',
  modelApplicability: LLM_Model_Applicability.FAST_CLASSIFICATION,
  prompt,
  access,
});

// @ts-expect-error a provider the catalogue does not have
defineChatAgent({ ref: 'c', provider: 'mistral', model: LLM_Model.CLAUDE_OPUS_5, prompt, access });
// @ts-expect-error a provider of the catalogue that does not offer chat
defineChatAgent({ ref: 'd', provider: 'posthog', model: LLM_Model.CLAUDE_OPUS_5, prompt, access });
// @ts-expect-error a model of another vendor
defineChatAgent({ ref: 'e', provider: 'anthropic', model: LLM_Model.GPT_5, prompt, access });
// @ts-expect-error both a pinned model and a class
defineChatAgent({
  ref: 'f',
  provider: 'anthropic',
  model: LLM_Model.CLAUDE_OPUS_5,
  modelApplicability: LLM_Model_Applicability.CONVERSATION,
  prompt,
  access,
});
// @ts-expect-error neither a pinned model nor a class
defineChatAgent({ ref: 'g', provider: 'anthropic', prompt, access });
defineChatAgent({
  ref: 'h',
  provider: 'anthropic',
  model: LLM_Model.CLAUDE_OPUS_5,
  prompt,
  // @ts-expect-error an application role for organization access
  access: [{ primaryScope: ResourcePrimaryScope.ORGANIZATIONS, roles: [CORE_APP_ROLES.APP_USER] }],
});

// A system is registered as the module's contribution; its ref is written once.
const system = defineActorSystem({ ref: 'helper', displayName: 'Helper', agents: [agent] });
expectTypeOf(system.ref).toEqualTypeOf<'helper'>();
expectTypeOf(system).toExtend<FlowsActorsContribution>();
// @ts-expect-error an agent that is not a handle (a bare ref) cannot join a system
defineActorSystem({ ref: 'x', displayName: 'X', agents: ['helper.agent'] });
