// The guide's API-key mint handlers (guide: "Keep the secret and the authority separate"), verbatim but for
// one line: the project's `generateApiKeyMaterial` also takes the record id the key embeds and the keyed
// hasher (README: Differences from the guide), so the guide's one-argument call is an expected error here.
import {
  assertRequestedRolesWithinCallerCeiling,
  generateApiKeyMaterial,
  type ApiKeyImplHandlers,
  type ApiKeyScope,
  type ExecutionContext,
  type RoleHierarchyResolver,
} from '@wildo-ai/saas-backend-lib';

const PLAINTEXT_KEY_BY_EC = new WeakMap<ExecutionContext, string>();

export function buildApiKeyMintHandlers(
  scope: ApiKeyScope,
  roleHierarchyResolver: RoleHierarchyResolver,
): ApiKeyImplHandlers {
  return {
    prefixCoreOperations: async (_id, input, executionContext, _operationPath, utils) => {
      assertRequestedRolesWithinCallerCeiling(
        executionContext,
        (input as { roles?: string[] }).roles,
        utils.errorBuilder,
        roleHierarchyResolver,
      );
      // @ts-expect-error the project's form is generateApiKeyMaterial(scope, utils.newRecordId, credentialSecrets)
      const { plainKey, keyPrefix, hashedKey } = generateApiKeyMaterial(scope);
      PLAINTEXT_KEY_BY_EC.set(executionContext, plainKey);
      return { ...(input as Record<string, unknown>), keyPrefix, hashedKey };
    },
    postfixCoreOperations: async (_id, createdKey, executionContext, _operationPath, _utils) => {
      if (!createdKey || typeof createdKey !== 'object') return createdKey;
      const plainKey = PLAINTEXT_KEY_BY_EC.get(executionContext);
      PLAINTEXT_KEY_BY_EC.delete(executionContext);
      if (!plainKey) return createdKey;
      return { ...(createdKey as Record<string, unknown>), plainKey };
    },
  };
}
