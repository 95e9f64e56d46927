// The tamper-evident audit trail of every dispatched call: entries, sealing, the chain check, the admins' query route.
export { auditModule } from './audit.module.js';
export { createAuditRouter, type AuditRouterOptions } from './audit.routes.js';
export {
  AuditTrail,
  type AuditChainReport,
  type AuditEntry,
  type AuditOutcome,
  type AuditQuery,
} from './audit-trail.service.js';
