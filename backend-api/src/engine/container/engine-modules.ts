import { a2aModule } from '../a2a/a2a.module.js';
import { agentsModule } from '../agents/agents.module.js';
import { tokenBudgetsModule } from '../agents/budgets/token-budget.module.js';
import { codingAgentsModule } from '../agents/coding/index.js';
import { credentialsModule } from '../credentials/credentials.module.js';
import { filesModule } from '../files/files.module.js';
import { oauthModule } from '../oauth/oauth.module.js';
import { ragModule } from '../rag/rag.module.js';
import type { BackendApplicationDefinition, BackendDomainModule } from './backend-domain-module.js';

/** Modules every application gets: the engine's own resources (credentials, OAuth), token budgets, the agents runtime (coding agents included), A2A, files and RAG. */
export const ENGINE_MODULES: readonly BackendDomainModule[] = [
  credentialsModule,
  oauthModule,
  filesModule,
  tokenBudgetsModule,
  agentsModule,
  codingAgentsModule,
  a2aModule,
  ragModule,
];

/**
 * The application as the engine runs it: the engine's own modules first, then the application's, so they
 * are validated, served and reported together. `createWildoBackend` and `wildo exposure` both start here.
 */
export function withEngineModules(application: BackendApplicationDefinition): BackendApplicationDefinition {
  return { ...application, modules: [...ENGINE_MODULES, ...application.modules] };
}
