import {
  Actor_Role_Category,
  CORE_ORG_ROLES,
  FlowActorSystem_Kind,
  FlowsActors_Agent_Skill_Type,
  LLM_Model,
  LLM_Model_Applicability,
  LLMProvider_ChatCompletionInputSchema,
  LLMProvider_OperationKey,
  ResourceOperationRiskLevel,
  ResourcePrimaryScope,
} from '@wildo/shared-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import type { RuntimeConfiguration } from '../../config/index.js';
import { catalogueModelResolver } from './agent-model-resolver.js';
import { AgentsRegistry } from './agents-registry.service.js';
import { applicationOf, flowsModule, functionTool, loadGeneratedRuntime } from './agents-registry.fixtures.js';
import { defineActorSystem, defineChatAgent, type AccessRule } from './define-agent.js';

const members: readonly AccessRule[] = [
  { primaryScope: ResourcePrimaryScope.ORGANIZATIONS, roles: [CORE_ORG_ROLES.ORG_MEMBER] },
];
const lookup = functionTool('notes.lookup');
const rename = functionTool('notes.rename');

const assistant = defineChatAgent({
  ref: 'notes.chat.agent',
  provider: 'anthropic',
  model: LLM_Model.CLAUDE_HAIKU_5,
  prompt: { role: 'You keep notes tidy.', instructions: ['Look a note up first.'] },
  tools: [lookup, rename],
  access: members,
  maxOutputTokens: 512,
});

let runtime: RuntimeConfiguration;
beforeAll(async () => {
  runtime = await loadGeneratedRuntime();
});

describe('defineChatAgent', () => {
  it('derives the operation definition, the chat skill and the tool refs; no createdAt is needed', () => {
    expect(assistant).toMatchObject({
      ref: 'notes.chat.agent',
      displayName: 'notes.chat.agent',
      config: {
        providerRef: 'anthropic',
        operationKey: LLMProvider_OperationKey.CHAT_COMPLETION,
        model: LLM_Model.CLAUDE_HAIKU_5,
        maxOutputTokens: 512,
        accessControl: [
          { primaryScope: ResourcePrimaryScope.ORGANIZATIONS, requiresApproval: false, roles: ['ORG_MEMBER'] },
        ],
        riskLevel: ResourceOperationRiskLevel.MEDIUM,
      },
      operationDefinition: {
        providerRef: 'anthropic',
        operationKey: LLMProvider_OperationKey.CHAT_COMPLETION,
        inputSchema: LLMProvider_ChatCompletionInputSchema,
      },
      promptSpec: {
        role: 'You keep notes tidy.',
        skillType: FlowsActors_Agent_Skill_Type.CHAT,
        instructions: ['Look a note up first.'],
      },
      capabilities: { tools: { functionRefs: ['notes.lookup', 'notes.rename'] } },
    });
    expect(assistant.createdAt).toBeUndefined();
  });

  it('carries its tools without making them part of the declaration', () => {
    expect(assistant.functionTools).toEqual([lookup, rename]);
    expect(Object.keys(assistant)).not.toContain('functionTools');
    expect({ ...assistant }).not.toHaveProperty('functionTools');
  });

  it('declares an applicability class instead of a pinned model', () => {
    const agent = defineChatAgent({
      ref: 'notes.class.agent',
      provider: 'anthropic',
      modelApplicability: LLM_Model_Applicability.CONVERSATION,
      prompt: { role: 'r', instructions: [] },
      access: members,
    });
    expect(agent.config).toMatchObject({ modelApplicability: LLM_Model_Applicability.CONVERSATION });
    expect(agent.config).not.toHaveProperty('model');
  });

  it('registers as is: the registry resolves the model and finds the tools', () => {
    const registry = new AgentsRegistry(
      applicationOf(flowsModule('notes', { agents: [assistant], functionTools: assistant.functionTools })),
      runtime,
      catalogueModelResolver(),
    );
    expect(registry.agent('notes.chat.agent')).toMatchObject({
      providerRef: 'anthropic',
      vendorModelId: 'claude-haiku-5',
    });
  });
});

describe('defineActorSystem', () => {
  const desk = defineActorSystem({
    ref: 'notes-desk',
    displayName: 'Notes desk',
    agents: [assistant],
    maxToolSteps: 4,
  });

  it('keys its factory by its own ref and makes each agent an AGENTIC operator', () => {
    expect(Object.keys(desk.flowActorSystemsFactoryMap)).toEqual(['notes-desk']);
    const system = desk.flowActorSystemsFactoryMap['notes-desk']!();
    expect(system).toEqual(desk.build());
    expect(system).toMatchObject({
      kind: FlowActorSystem_Kind.ACTOR,
      ref: 'notes-desk',
      config: { maxToolSteps: 4, accessControl: assistant.config.accessControl },
      actors: [
        {
          ref: 'notes.chat.agent',
          displayName: 'notes.chat.agent',
          roleCategory: Actor_Role_Category.OPERATOR,
          agentRef: 'notes.chat.agent',
        },
      ],
    });
  });

  it('is a module’s flows-actors contribution: the registry accepts it whole', () => {
    const registry = new AgentsRegistry(applicationOf(flowsModule('notes', desk)), runtime, catalogueModelResolver());
    expect(registry.system('notes-desk')?.ref).toBe('notes-desk');
    expect(registry.tool('notes.rename')).toBe(rename);
  });

  it('registers a tool shared by two agents once, and names actors as told', () => {
    const reviewer = defineChatAgent({ ...assistantDefinition('notes.review.agent'), tools: [lookup] });
    const pair = defineActorSystem({
      ref: 'notes-pair',
      displayName: 'Pair',
      agents: [
        assistant,
        { agent: reviewer, ref: 'reviewer', displayName: 'Reviewer', roleCategory: Actor_Role_Category.REVIEWER },
      ],
    });
    expect(pair.functionTools).toEqual([lookup, rename]);
    expect(pair.agents.map((agent) => agent.ref)).toEqual(['notes.chat.agent', 'notes.review.agent']);
    expect(pair.build().actors[1]).toMatchObject({
      ref: 'reviewer',
      displayName: 'Reviewer',
      roleCategory: Actor_Role_Category.REVIEWER,
    });
  });

  it('asks for the system’s access when its agents disagree; an explicit access is used as given', () => {
    const admins = defineChatAgent({
      ...assistantDefinition('notes.admin.agent'),
      access: [{ primaryScope: ResourcePrimaryScope.ORGANIZATIONS, roles: [CORE_ORG_ROLES.ORG_ADMIN] }],
    });
    expect(() => defineActorSystem({ ref: 'mixed', displayName: 'Mixed', agents: [assistant, admins] })).toThrow(
      'actor system "mixed": its agents declare different access (or it has none); set access on the system',
    );
    const mixed = defineActorSystem({
      ref: 'mixed',
      displayName: 'Mixed',
      agents: [assistant, admins],
      access: [{ primaryScope: ResourcePrimaryScope.ORGANIZATIONS, roles: [CORE_ORG_ROLES.ORG_ADMIN] }],
    });
    expect(mixed.build().config.accessControl).toEqual([
      { primaryScope: ResourcePrimaryScope.ORGANIZATIONS, requiresApproval: false, roles: ['ORG_ADMIN'] },
    ]);
  });
});

function assistantDefinition(ref: string) {
  return {
    ref,
    provider: 'anthropic',
    model: LLM_Model.CLAUDE_HAIKU_5,
    prompt: { role: 'r', instructions: [] },
    access: members,
  } as const;
}
