import { CoreResourceOperation } from '@wildo/shared-lib';
import { SAAS_SERVICE_TYPES } from '../container/index.js';
import type { ExecutionContext, PostfixCoreHandler } from '../resources/index.js';
import type { CredentialDirectory } from './credential-directory.service.js';

/**
 * Carries a freshly minted secret from a CREATE's prefix handler to its postfix handler, which attaches it
 * to that one response under `field`. Keyed by the call's context object, so the plaintext never sits in a
 * shared or long-lived place and never reaches storage.
 */
export function oneTimeSecret(field: 'plainKey' | 'plainSecret') {
  const byContext = new WeakMap<ExecutionContext, string>();
  const attach: PostfixCoreHandler = async (_id, created, executionContext) => {
    const value = byContext.get(executionContext);
    byContext.delete(executionContext);
    return value ? { ...(created as Record<string, unknown>), [field]: value } : created;
  };
  return {
    remember(executionContext: ExecutionContext, value: string): void {
      byContext.set(executionContext, value);
    },
    /** CREATE's postfix: attaches the remembered secret to this one response. */
    attach,
    postfixCoreOperations: {
      [CoreResourceOperation.CREATE]: attach,
      [CoreResourceOperation.DELETE]: announceDeletion,
    },
  };
}

/** DELETE's postfix: a deleted credential stops working on every replica at once. */
export const announceDeletion: PostfixCoreHandler = async (id, result, _context, _path, utils) => {
  if (id) await utils.resolve<CredentialDirectory>(SAAS_SERVICE_TYPES.CredentialDirectory).changed(id);
  return result;
};
