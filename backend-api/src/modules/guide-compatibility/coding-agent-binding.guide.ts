// The guide's coding-agent binding and its companion execution profile (guide: "Author the matching companion
// execution profile"), as the guide writes them, in a configuration of their own. `ApplicationCodingAgentBinding`
// is the application's own type; here it is the framework's binding type under the guide's name.
import {
  AgentClientProtocol_AuthMode,
  AgentClientProtocol_HostConfigurationInheritance,
  AgentClientProtocol_PermissionCeiling,
  AgentClientProtocol_RunnerHost,
  AgentClientProtocol_WorkingDirectoryPolicy,
  APPLICATION_ENVIRONMENT,
  ExternalProvider_ExchangeProtocol_Kind,
} from '@wildo-ai/external-connectors-models';
import { defineSaaSConfig, defineSaaSProviders, type BuiltInProviderCatalog } from '@wildo-ai/platform-config-lib';
import { defineCodingAgent, type CodingAgentBinding } from '@wildo-ai/saas-backend-lib';
import { EngineCapability, LLM_Model } from '@wildo-ai/saas-models';

type ApplicationCodingAgentBinding = CodingAgentBinding;

const codingAgentBinding = {
  ref: 'application-coding.agent',
  displayName: 'Application Coding Agent',
  providerRef: 'anthropic',
  executionProfileRef: 'claude-code-acp',
  model: LLM_Model.CLAUDE_OPUS_5,
} satisfies ApplicationCodingAgentBinding;

/** The binding registered as an agent (a module's `flowsActors.agents`). */
export const applicationCodingAgent = defineCodingAgent(codingAgentBinding);

/** A configuration holding the guide's companion entry and execution profile. */
export const codingAgentGuideConfig = defineSaaSConfig({
  application: { name: 'Wonder Todos Companion', environment: APPLICATION_ENVIRONMENT.DEVELOPMENT },
  engineCapabilities: { [EngineCapability.AI_CODING_AGENT]: { enabled: true } },
  providers: defineSaaSProviders<BuiltInProviderCatalog>({
    scopes: {
      companion: {
        providers: {
          anthropic: {
            engineCapabilities: [EngineCapability.AI_CODING_AGENT],
            providerCapabilities: ['CODING_AGENT'],
            protocols: ['AGENT_CLIENT_PROTOCOL'],
          },
        },
      },
    },
  }),
  providerConfigurations: {
    anthropic: {
      [ExternalProvider_ExchangeProtocol_Kind.AGENT_CLIENT_PROTOCOL]: {
        defaultExecutionProfileRef: 'claude-code-acp',
        executionProfiles: {
          'claude-code-acp': {
            runnerHost: AgentClientProtocol_RunnerHost.BACKEND_SUBPROCESS,
            authMode: AgentClientProtocol_AuthMode.HOST_MANAGED,
            allowedApplicationEnvironments: [APPLICATION_ENVIRONMENT.DEVELOPMENT],
            workingDirectoryPolicy: AgentClientProtocol_WorkingDirectoryPolicy.WORKSPACE_ROOT,
            permissionCeiling: AgentClientProtocol_PermissionCeiling.UNRESTRICTED,
            hostConfigurationInheritance: AgentClientProtocol_HostConfigurationInheritance.APPLICATION_SCOPED,
            turnTimeoutMs: 30 * 60_000,
            maxAutoContinuations: 12,
            awaitingInputTtlMs: 30 * 60_000,
          },
        },
      },
    },
  },
});
