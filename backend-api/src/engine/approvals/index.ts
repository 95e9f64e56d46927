// Approval of operation calls on every surface: the dispatch path's `approval` step, its store and its routes.
export { approvalsModule } from './approvals.module.js';
export { createApprovalsRouter } from './approvals.routes.js';
export {
  APPROVALS_PAGE_PATH,
  canonicalJson,
  OperationApprovals,
  requesterKeyOf,
  type OperationApprovalView,
} from './operation-approvals.service.js';
