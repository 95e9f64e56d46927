// The reference application's configuration (a todo + knowledge-base SaaS). After any change, run
// `pnpm wildo config sync` and commit .wildo-saas/generated; the backend refuses to start on a stale one.
import {
  A2A_TOKEN_BUDGET_FEATURE_ID,
  APPLICATION_ENVIRONMENT,
  CimdTrustPolicy,
  defineSaaSConfig,
  defineSaaSProviders,
  EngineCapability,
  LimitGrantMode,
} from '@wildo/shared-lib';
import type { WildoDiscoveredProviderCatalog } from './.wildo-saas/generated/provider-catalog.types.js';

export default defineSaaSConfig({
  application: {
    name: 'Wildo Todos',
    environment: APPLICATION_ENVIRONMENT.DEVELOPMENT,
  },

  // Switched on here; each provider is still absent at run time until its credential variable is set.
  engineCapabilities: {
    [EngineCapability.AI_LLM]: { enabled: true },
    [EngineCapability.AI_EMBEDDINGS]: { enabled: true },
    [EngineCapability.LLM_OBSERVABILITY]: { enabled: true },
  },

  providers: defineSaaSProviders<WildoDiscoveredProviderCatalog>({
    scopes: {
      backend: {
        providers: {
          anthropic: {
            engineCapabilities: [EngineCapability.AI_LLM],
            providerCapabilities: ['LLM_CHAT'],
            protocols: ['LLM_PROVIDER'],
          },
          openai: {
            engineCapabilities: [EngineCapability.AI_EMBEDDINGS],
            providerCapabilities: ['LLM_EMBEDDINGS'],
            protocols: ['EMBEDDINGS_PROVIDER'],
          },
          posthog: {
            engineCapabilities: [EngineCapability.LLM_OBSERVABILITY],
            providerCapabilities: ['LLM_OBSERVABILITY'],
            protocols: [],
          },
        },
        selection: {
          [EngineCapability.AI_LLM]: { primary: 'anthropic', whenUnavailable: [] },
          [EngineCapability.AI_EMBEDDINGS]: { primary: 'openai', whenUnavailable: [] },
          [EngineCapability.LLM_OBSERVABILITY]: { primary: 'posthog', whenUnavailable: [] },
        },
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
      main_backend_api: { publicUrl: 'http://localhost:4241' },
      // The backend serves the built frontend from its own origin (the consent page is the authorization endpoint).
      main_frontend: { publicUrl: 'http://localhost:4241' },
    },
  },

  frontendServices: {
    main_frontend: { displayName: 'Wildo Todos', isDefault: true },
  },

  observability: {
    llmObservability: { captureContent: false, sampleRate: 1 },
  },

  products: [
    {
      ref: 'todos.team',
      displayName: 'Todos Team',
      description: 'The organization plan: shared todos, the knowledge base and A2A access.',
      scope: 'organization',
      grantedLimits: {
        [A2A_TOKEN_BUDGET_FEATURE_ID]: { value: 100_000, mode: LimitGrantMode.SET },
      },
    },
  ],
});
