import { randomUUID } from 'node:crypto';
import { CoreResourceOperation, type RotateCredentialRequestSchema } from '@wildo/shared-lib';
import type { z } from 'zod';
import { SAAS_SERVICE_TYPES } from '../container/index.js';
import {
  createResourceCustomServiceImplementation,
  type CustomOperationArgs,
  type PostfixCoreHandler,
  type PrefixCoreHandler,
  type RecordGuard,
  type ResourceCustomServiceImplementation,
  type ResourceRecord,
  type ResourcesRegistry,
  type ServiceHandlerUtils,
} from '../resources/index.js';
import type { RoleHierarchyResolver } from '../identity/index.js';
import { generateApiKeyMaterial, type ApiKeyScope } from './api-key-material.js';
import type { CredentialDirectory } from './credential-directory.service.js';
import type { CredentialSecrets } from './credential-secrets.service.js';
import { Credentials_Operations } from './credentials.resource-types.js';
import { announceDeletion, oneTimeSecret } from './one-time-secret.js';
import { assertRequestedRolesWithinCallerCeiling, credentialGuard, cutoffOf } from './roles-ceiling.js';

type ApiKeyInput = { name: string; roles: string[]; expiresAt?: string | null };
type RotateInput = z.infer<typeof RotateCredentialRequestSchema>;

/** The core-operation handlers of an API key resource (guide: `ApiKeyImplHandlers`): one function each. */
export interface ApiKeyImplHandlers {
  prefixCoreOperations: PrefixCoreHandler;
  postfixCoreOperations: PostfixCoreHandler;
}

function refuseExpiredAtCreation(input: ApiKeyInput, utils: ServiceHandlerUtils): void {
  if (input.expiresAt && new Date(input.expiresAt).getTime() <= utils.now().getTime()) {
    throw utils.errorBuilder.badRequest('The expiry must be in the future.', [
      { path: 'expiresAt', expected: 'an instant in the future' },
    ]);
  }
}

/** The core operation a handler runs for (function-valued handlers run for every core operation). */
function coreOperationAt(operationPath: string, utils: ServiceHandlerUtils): CoreResourceOperation | undefined {
  return utils.resolve<ResourcesRegistry>(SAAS_SERVICE_TYPES.ResourcesRegistry).getOperationFromPath(operationPath)
    .core;
}

/**
 * The API key handlers in the guide's form, `buildApiKeyMintHandlers(scope, roleHierarchyResolver)`. CREATE
 * refuses requested roles above the caller's through the engine's role hierarchy, and through
 * `roleHierarchyResolver` as well when one is given (it can narrow the ceiling, never widen it), then mints
 * key material for the id the record will get: only the hash is stored, the plaintext is attached to this
 * one response. DELETE announces the key's end to every replica; other operations pass through.
 *
 * @example
 * // The engine's organization keys (the only keys the API key strategy looks up):
 * createResourceCustomServiceImplementation(CREDENTIAL_RESOURCE_TYPES.ORGANIZATION_API_KEYS, { guard: credentialGuard(), ...buildApiKeyMintHandlers('ORGANIZATION') });
 */
export function buildApiKeyMintHandlers(
  scope: ApiKeyScope,
  roleHierarchyResolver?: RoleHierarchyResolver,
): ApiKeyImplHandlers {
  const plainKeys = oneTimeSecret('plainKey');
  return {
    prefixCoreOperations: async (_id, input, executionContext, operationPath, utils) => {
      if (coreOperationAt(operationPath, utils) !== CoreResourceOperation.CREATE) return input;
      const request = input as ApiKeyInput;
      const engineHierarchy = utils.resolve<RoleHierarchyResolver>(SAAS_SERVICE_TYPES.RoleHierarchyResolver);
      assertRequestedRolesWithinCallerCeiling(executionContext, request.roles, utils.errorBuilder, engineHierarchy);
      if (roleHierarchyResolver && roleHierarchyResolver !== engineHierarchy) {
        assertRequestedRolesWithinCallerCeiling(
          executionContext,
          request.roles,
          utils.errorBuilder,
          roleHierarchyResolver,
        );
      }
      refuseExpiredAtCreation(request, utils);
      if (utils.newRecordId === undefined) throw new Error('A CREATE runs with the id of the record it creates.');
      const { plainKey, keyPrefix, hashedKey } = generateApiKeyMaterial(
        scope,
        utils.newRecordId,
        utils.resolve<CredentialSecrets>(SAAS_SERVICE_TYPES.CredentialSecrets),
      );
      plainKeys.remember(executionContext, plainKey);
      return { ...request, keyPrefix, hashedKey };
    },
    postfixCoreOperations: async (id, result, executionContext, operationPath, utils) => {
      switch (coreOperationAt(operationPath, utils)) {
        case CoreResourceOperation.CREATE:
          return plainKeys.attach(id, result, executionContext, operationPath, utils);
        case CoreResourceOperation.DELETE:
          return announceDeletion(id, result, executionContext, operationPath, utils);
        default:
          return result;
      }
    },
  };
}

/** Mints a sibling key with the same name, roles and expiry; returns the new record and its plaintext. */
async function mintSibling(scope: ApiKeyScope, record: ResourceRecord, utils: ServiceHandlerUtils) {
  const id = randomUUID();
  const { plainKey, keyPrefix, hashedKey } = generateApiKeyMaterial(
    scope,
    id,
    utils.resolve<CredentialSecrets>(SAAS_SERVICE_TYPES.CredentialSecrets),
  );
  const created = await utils.records.create(
    {
      name: record.name,
      roles: record.roles,
      ...(record.expiresAt ? { expiresAt: record.expiresAt } : {}),
      keyPrefix,
      hashedKey,
    },
    { id },
  );
  return { created, plainKey };
}

/** A rotated key is neither rotated nor regenerated again; a rotation's cutoff must be valid. */
const apiKeyPreconditions: RecordGuard = ({ operation, record, input, utils }) => {
  if (operation !== Credentials_Operations.ROTATE && operation !== Credentials_Operations.REGENERATE) return;
  if (record?.invalidationDate) {
    throw utils.errorBuilder.conflict(
      operation === Credentials_Operations.ROTATE
        ? 'This key was already rotated.'
        : 'This key was rotated; regenerate its replacement instead.',
    );
  }
  if (operation === Credentials_Operations.ROTATE) cutoffOf((input as RotateInput).oldKeyInvalidationDate, utils.now());
};

/** The service code of an API key resource: the guard (role ceiling, rotation rules), CREATE handlers, ROTATE and REGENERATE. */
export function buildApiKeyImplementation(
  resourceType: string,
  scope: ApiKeyScope,
): ResourceCustomServiceImplementation {
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
      [Credentials_Operations.REGENERATE]: async ({
        id,
        record,
        utils,
      }: CustomOperationArgs<Record<string, never>>) => {
        const { created, plainKey } = await mintSibling(scope, record as ResourceRecord, utils);
        return { ...created, plainKey, previousKeyId: id };
      },
    },
  });
}
