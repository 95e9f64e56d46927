import { a2aModule } from '../a2a/index.js';
import { agentsModule } from '../agents/index.js';
import { tokenBudgetsModule } from '../agents/budgets/index.js';
import { codingAgentsModule } from '../agents/coding/index.js';
import { approvalsModule } from '../approvals/index.js';
import { auditModule } from '../audit/index.js';
import { credentialsModule } from '../credentials/index.js';
import { filesModule } from '../files/index.js';
import { mailModule } from '../mail/index.js';
import { oauthModule } from '../oauth/index.js';
import { ragModule } from '../rag/index.js';
import type { BackendApplicationDefinition, BackendDomainModule } from './backend-domain-module.js';

/** Modules every application gets: approvals of operation calls, the audit trail, the engine's own resources (credentials, OAuth), files, mail, token budgets, the agents runtime (coding agents included), A2A and RAG. */
export const ENGINE_MODULES: readonly BackendDomainModule[] = [
  approvalsModule,
  auditModule,
  credentialsModule,
  oauthModule,
  filesModule,
  mailModule,
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
