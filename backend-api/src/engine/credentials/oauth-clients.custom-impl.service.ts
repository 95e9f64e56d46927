import {
  CoreResourceOperation,
  OIDC_SUPPORTED_IDENTITY_SCOPES,
  type RotateCredentialRequestSchema,
} from '@wildo/shared-lib';
import type { z } from 'zod';
import { SAAS_SERVICE_TYPES } from '../container/index.js';
import type { InputProblem } from '../errors/index.js';
import {
  createResourceCustomServiceImplementation,
  type CustomOperationArgs,
  type RecordGuard,
  type ResourceCustomServiceImplementation,
  type ResourceRecord,
  type ServiceHandlerUtils,
} from '../resources/index.js';
import type { CredentialDirectory } from './credential-directory.service.js';
import type { CredentialSecrets } from './credential-secrets.service.js';
import { Credentials_Operations } from './credentials.resource-types.js';
import { DYNAMIC_REGISTRATION_VARIANT } from './oauth-clients.resource.js';
import { isSafeRedirectUri } from '../oauth/cimd/index.js';
import { clientRevocationSubject, type TokenRevocations } from '../identity/index.js';
import { oneTimeSecret } from './one-time-secret.js';
import { credentialGuard, cutoffOf } from './roles-ceiling.js';

interface ClientInput {
  clientName: string;
  grantTypes: string[];
  roles: string[];
  redirectUris: string[];
  tokenEndpointAuthMethod: 'client_secret_basic' | 'client_secret_post' | 'none';
  trusted: boolean;
  scope: string;
}

interface StoredSecret {
  hash: string;
  createdAt: string;
  invalidAfter: string | null;
}

/** The most secrets a client keeps at once (rotation overlap); expired ones are dropped first. */
const MAX_SECRETS = 5;
const SECRET_PREFIX = 'wcs_';

/** Problems in a client's combination of grants, roles, redirect URIs, auth method and scopes. */
export function clientMetadataProblems(input: ClientInput, organizationScoped: boolean): InputProblem[] {
  const problems: InputProblem[] = [];
  const machine = input.grantTypes.includes('client_credentials');
  const delegated = input.grantTypes.includes('authorization_code');
  if (machine && input.tokenEndpointAuthMethod === 'none')
    problems.push({ path: 'tokenEndpointAuthMethod', expected: 'a secret-based method for client_credentials' });
  if (machine && input.roles.length === 0)
    problems.push({ path: 'roles', expected: 'at least one role for client_credentials' });
  if (!machine && input.roles.length > 0)
    problems.push({
      path: 'roles',
      expected: 'no roles without client_credentials (delegated tokens carry the person’s roles)',
    });
  if (delegated && input.redirectUris.length === 0)
    problems.push({ path: 'redirectUris', expected: 'at least one redirect URI for authorization_code' });
  input.redirectUris.forEach((uri, i) => {
    if (!isSafeRedirectUri(uri))
      problems.push({
        path: `redirectUris[${i}]`,
        expected: 'an https URL (or http on a loopback host) without credentials or fragment',
      });
  });
  if (input.trusted && !organizationScoped)
    problems.push({ path: 'trusted', expected: 'false: only organization clients can skip consent' });
  const scopes = input.scope.split(/\s+/).filter(Boolean);
  if (scopes.some((s) => !OIDC_SUPPORTED_IDENTITY_SCOPES.includes(s)))
    problems.push({ path: 'scope', expected: `a subset of: ${OIDC_SUPPORTED_IDENTITY_SCOPES.join(' ')}` });
  return problems;
}

function newSecret(utils: ServiceHandlerUtils): { plainSecret: string; secret: StoredSecret; secretPrefix: string } {
  const secrets = utils.resolve<CredentialSecrets>(SAAS_SERVICE_TYPES.CredentialSecrets);
  const raw = secrets.generate();
  const plainSecret = `${SECRET_PREFIX}${raw}`;
  return {
    plainSecret,
    secretPrefix: `${plainSecret.slice(0, 10)}…`,
    secret: { hash: secrets.hash(plainSecret), createdAt: utils.now().toISOString(), invalidAfter: null },
  };
}

type RotateInput = z.infer<typeof RotateCredentialRequestSchema>;

/**
 * The secrets a client keeps once a new one is added: current ones get `cutoff` (rotation), then every secret
 * past its cutoff is dropped (so a rotation effective now always makes room).
 */
function keptSecrets(record: ResourceRecord, cutoff: string | null, nowMs: number): StoredSecret[] {
  // Secrets are internal fields: present on the stored record handlers receive, never in a response.
  const stored = (record.secrets as StoredSecret[] | undefined) ?? [];
  return stored
    .map((s) => (cutoff !== null && s.invalidAfter === null ? { ...s, invalidAfter: cutoff } : s))
    .filter((s) => s.invalidAfter === null || new Date(s.invalidAfter).getTime() > nowMs);
}

/** The cutoff a call gives the current secrets: a valid one for ROTATE, none for REGENERATE. */
function cutoffFor(operation: string, input: unknown, utils: ServiceHandlerUtils): string | null {
  return operation === Credentials_Operations.ROTATE
    ? cutoffOf((input as RotateInput).oldKeyInvalidationDate, utils.now())
    : null;
}

/** A rotation's cutoff must be valid, and a client holding the most secrets it may gets no other. */
const oauthClientPreconditions: RecordGuard = ({ operation, record, input, utils }) => {
  if (operation !== Credentials_Operations.ROTATE && operation !== Credentials_Operations.REGENERATE) return;
  const cutoff = cutoffFor(operation, input, utils);
  if (keptSecrets(record as ResourceRecord, cutoff, utils.now().getTime()).length >= MAX_SECRETS) {
    throw utils.errorBuilder.conflict(
      'This client already has the most secrets it may hold; rotate with an earlier cutoff.',
    );
  }
};

/** Adds a secret; `cutoff` (rotation) retires the current ones then, `null` (regeneration) keeps them. */
async function addSecret(record: ResourceRecord, cutoff: string | null, utils: ServiceHandlerUtils) {
  const kept = keptSecrets(record, cutoff, utils.now().getTime());
  const { plainSecret, secret, secretPrefix } = newSecret(utils);
  // Pinned to the version the secrets were read at: a concurrent rotation is refused, never merged away.
  const updated = await utils.records.update(
    record._id,
    { secrets: [...kept, secret], secretPrefix },
    { expectedVersion: record.version },
  );
  if (!updated) throw utils.errorBuilder.notFound();
  await utils.resolve<CredentialDirectory>(SAAS_SERVICE_TYPES.CredentialDirectory).changed(record._id);
  return { ...updated, plainSecret, oldSecretInvalidationDate: cutoff };
}

/**
 * The service code of an OAuth client resource: the guard (role ceiling, rotation rules), CREATE (metadata
 * rules, secret once), DELETE (revokes the client's tokens), ROTATE, REGENERATE.
 */
export function buildOAuthClientImplementation(
  resourceType: string,
  organizationScoped: boolean,
): ResourceCustomServiceImplementation {
  const plainSecrets = oneTimeSecret('plainSecret');
  return createResourceCustomServiceImplementation(resourceType, {
    guard: credentialGuard(oauthClientPreconditions),
    prefixCoreOperations: {
      [CoreResourceOperation.CREATE]: async (_id, input, executionContext, operationPath, utils) => {
        const request = input as ClientInput;
        const origin = operationPath.endsWith(`#${DYNAMIC_REGISTRATION_VARIANT}`)
          ? 'dynamic_registration'
          : 'registered';
        const problems = clientMetadataProblems(request, organizationScoped);
        if (problems.length > 0)
          throw utils.errorBuilder.badRequest('The client metadata is not consistent.', problems);
        if (request.tokenEndpointAuthMethod === 'none') return { ...request, origin, secrets: [] };
        const { plainSecret, secret, secretPrefix } = newSecret(utils);
        plainSecrets.remember(executionContext, plainSecret);
        return { ...request, origin, secrets: [secret], secretPrefix };
      },
    },
    postfixCoreOperations: plainSecrets.postfixCoreOperations,
    // A deleted client's tokens (its own and those people delegated to it) stop at once, on every replica.
    deleteInTransaction: async (client, tx, _context, utils) =>
      utils
        .resolve<TokenRevocations>(SAAS_SERVICE_TYPES.TokenRevocations)
        .revokeWithin(tx, clientRevocationSubject(client._id)),
    customOperations: {
      [Credentials_Operations.ROTATE]: async ({ record, input, utils }: CustomOperationArgs<RotateInput>) =>
        addSecret(record as ResourceRecord, cutoffFor(Credentials_Operations.ROTATE, input, utils), utils),
      [Credentials_Operations.REGENERATE]: async ({ record, utils }: CustomOperationArgs<Record<string, never>>) =>
        addSecret(record as ResourceRecord, null, utils),
    },
  });
}
