// Human approval of gated tool calls: signed approval requests and decisions.
export {
  type AppliedDecision,
  APPROVAL_LIFETIME_MS,
  type ApprovalDecision,
  ApprovalService,
  ownerKeyOf,
  type PendingApproval,
} from './approval.service.js';
