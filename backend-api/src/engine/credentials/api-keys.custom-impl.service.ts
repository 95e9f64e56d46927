import { randomUUID } from 'node:crypto';
import { CoreResourceOperation, type RotateCredentialRequestSchema } from '@wildo/shared-lib';
import type { z } from 'zod';
import { SAAS_SERVICE_TYPES } from '../container/saas-service-types.tokens.js';
import {
  createResourceCustomServiceImplementation,
  type CustomOperationArgs,
  type RecordGuard,
  type ResourceCustomServiceImplementation,
  type ResourceRecord,
  type ServiceHandlerUtils,
} from '../resources/custom-service.js';
import { generateApiKeyMaterial, type ApiKeyScope } from './api-key-material.js';
import type { CredentialDirectory } from './credential-directory.service.js';
import type { CredentialSecrets } from './credential-secrets.service.js';
import { Credentials_Operations } from './credentials.resource-types.js';
import { oneTimeSecret } from './one-time-secret.js';
import { credentialGuard, cutoffOf } from './roles-ceiling.js';

type ApiKeyInput = { name: string; roles: string[]; expiresAt?: string | null };
type RotateInput = z.infer<typeof RotateCredentialRequestSchema>;

/** The prefix/postfix handlers of an API key resource's CREATE (guide: `ApiKeyImplHandlers`). */
export type ApiKeyImplHandlers = Pick<ResourceCustomServiceImplementation, 'prefixCoreOperations' | 'postfixCoreOperations'>;

function refuseExpiredAtCreation(input: ApiKeyInput, utils: ServiceHandlerUtils): void {
  if (input.expiresAt && new Date(input.expiresAt).getTime() <= utils.now().getTime()) {
    throw utils.errorBuilder.badRequest('The expiry must be in the future.', [{ path: 'expiresAt', expected: 'an instant in the future' }]);
  }
}

/**
 * CREATE of an API key (the role ceiling is the resource's guard): key material is minted for the id the
 * record will get; only the hash is stored and the plaintext is attached to this one response.
 */
export function buildApiKeyMintHandlers(scope: ApiKeyScope): ApiKeyImplHandlers {
  const plainKeys = oneTimeSecret('plainKey');
  return {
    prefixCoreOperations: {
      [CoreResourceOperation.CREATE]: async (_id, input, executionContext, _path, utils) => {
        const request = input as ApiKeyInput;
        refuseExpiredAtCreation(request, utils);
        const { plainKey, keyPrefix, hashedKey } = generateApiKeyMaterial(scope, utils.newRecordId as string, utils.resolve<CredentialSecrets>(SAAS_SERVICE_TYPES.CredentialSecrets));
        plainKeys.remember(executionContext, plainKey);
        return { ...request, keyPrefix, hashedKey };
      },
    },
    postfixCoreOperations: plainKeys.postfixCoreOperations,
  };
}

/** Mints a sibling key with the same name, roles and expiry; returns the new record and its plaintext. */
async function mintSibling(scope: ApiKeyScope, record: ResourceRecord, utils: ServiceHandlerUtils) {
  const id = randomUUID();
  const { plainKey, keyPrefix, hashedKey } = generateApiKeyMaterial(scope, id, utils.resolve<CredentialSecrets>(SAAS_SERVICE_TYPES.CredentialSecrets));
  const created = await utils.records.create(
    { name: record.name, roles: record.roles, ...(record.expiresAt ? { expiresAt: record.expiresAt } : {}), keyPrefix, hashedKey },
    { id },
  );
  return { created, plainKey };
}

/** A rotated key is neither rotated nor regenerated again; a rotation's cutoff must be valid. */
const apiKeyPreconditions: RecordGuard = ({ operation, record, input, utils }) => {
  if (operation !== Credentials_Operations.ROTATE && operation !== Credentials_Operations.REGENERATE) return;
  if (record?.invalidationDate) {
    throw utils.errorBuilder.conflict(operation === Credentials_Operations.ROTATE ? 'This key was already rotated.' : 'This key was rotated; regenerate its replacement instead.');
  }
  if (operation === Credentials_Operations.ROTATE) cutoffOf((input as RotateInput).oldKeyInvalidationDate, utils.now());
};

/** The service code of an API key resource: the guard (role ceiling, rotation rules), CREATE handlers, ROTATE and REGENERATE. */
export function buildApiKeyImplementation(resourceType: string, scope: ApiKeyScope): ResourceCustomServiceImplementation {
  return createResourceCustomServiceImplementation(resourceType, {
    guard: credentialGuard(apiKeyPreconditions),
    ...buildApiKeyMintHandlers(scope),
    customOperations: {
      // Rotation retires the old key at a known cutoff; the new key carries the same roles (never more).
      [Credentials_Operations.ROTATE]: async ({ id, record, input, utils }: CustomOperationArgs<RotateInput>) => {
        const current = record as ResourceRecord;
        const cutoff = cutoffOf(input.oldKeyInvalidationDate, utils.now());
        const { created, plainKey } = await mintSibling(scope, current, utils);
        await utils.records.update(id as string, { invalidationDate: cutoff, replacedByKeyId: created._id });
        await utils.resolve<CredentialDirectory>(SAAS_SERVICE_TYPES.CredentialDirectory).changed(id as string);
        return { ...created, plainKey, oldKeyId: id, oldKeyInvalidationDate: cutoff };
      },
      // Regeneration keeps the old key valid without a cutoff and needs no step-up.
      [Credentials_Operations.REGENERATE]: async ({ id, record, utils }: CustomOperationArgs<Record<string, never>>) => {
        const { created, plainKey } = await mintSibling(scope, record as ResourceRecord, utils);
        return { ...created, plainKey, previousKeyId: id };
      },
    },
  });
}
