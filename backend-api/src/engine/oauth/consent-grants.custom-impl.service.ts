import { SAAS_SERVICE_TYPES } from '../container/index.js';
import {
  createResourceCustomServiceImplementation,
  type ResourceCustomServiceImplementation,
} from '../resources/index.js';
import { OAUTH_CONSENT_GRANTS } from './consent-grants.resource.js';
import { grantRevocationSubject, type TokenRevocations } from '../identity/index.js';

/**
 * Withdrawing a remembered consent also stops the tokens the person delegated to that client for that resource,
 * at once and on every replica (the revocation commits with the deletion).
 */
export const consentGrantsImplementation: ResourceCustomServiceImplementation =
  createResourceCustomServiceImplementation(OAUTH_CONSENT_GRANTS, {
    deleteInTransaction: async (grant, tx, _context, utils) => {
      const subject = grantRevocationSubject(
        grant.userId as string,
        grant.clientId as string,
        grant.resource as string,
      );
      return utils.resolve<TokenRevocations>(SAAS_SERVICE_TYPES.TokenRevocations).revokeWithin(tx, subject);
    },
  });
