import { ExecutionContext_ExecutionType } from '@wildo/shared-lib';
import { inject, injectable } from 'inversify';
import { SAAS_SERVICE_TYPES, type Clock } from '../container/index.js';
import { InvalidationChannel, type CoordinationBackend } from '../coordination/index.js';
import { FrameworkError } from '../errors/index.js';
import type { MachinePrincipal } from '../identity/index.js';
import type { Logger } from '../logging/index.js';
import type { ResourceStore, StoredRecord, TenantScope } from '../persistence/index.js';
import type { ResourcesRegistry } from '../resources/index.js';
import { parseApiKey, type ApiKeyScope } from './api-key-material.js';
import type { CredentialSecrets } from './credential-secrets.service.js';
import { CREDENTIAL_CHANGED_CHANNEL, CREDENTIAL_RESOURCE_TYPES } from './credentials.resource-types.js';

/** A resolved key stays cached this long at most; changes are announced, so this only bounds a lost message. */
const CACHE_TTL_MS = 60_000;
const CACHE_SIZE = 10_000;

interface CachedKey {
  hashedKey: string;
  principal: MachinePrincipal;
  /** Refused from this instant (expiry or rotation cutoff), or Infinity. */
  validUntilMs: number;
  loadedAtMs: number;
}

/** A credential record read from its own tenant. */
export interface LocatedCredential {
  scope: TenantScope;
  record: StoredRecord;
}

const invalidKey = () =>
  new FrameworkError('UNAUTHENTICATED', 'The credential is not valid.', { reason: 'credential_invalid' });

/**
 * Resolves presented credentials to their records: locate the record's tenant by its id, read it in that
 * tenant, compare the secret's keyed hash. API key principals are cached per key and dropped on every replica
 * when the key changes (rotation, deletion).
 */
@injectable()
export class CredentialDirectory {
  private readonly keys = new Map<string, CachedKey>();
  private readonly invalidation: InvalidationChannel;

  constructor(
    @inject(SAAS_SERVICE_TYPES.ResourcesRegistry) private readonly registry: ResourcesRegistry,
    @inject(SAAS_SERVICE_TYPES.ResourceStore) private readonly store: ResourceStore,
    @inject(SAAS_SERVICE_TYPES.CredentialSecrets) private readonly secrets: CredentialSecrets,
    @inject(SAAS_SERVICE_TYPES.Coordination) coordination: CoordinationBackend,
    @inject(SAAS_SERVICE_TYPES.Clock) private readonly clock: Clock,
    @inject(SAAS_SERVICE_TYPES.Logger) logger: Logger,
  ) {
    this.invalidation = new InvalidationChannel(coordination, CREDENTIAL_CHANGED_CHANNEL, logger, (id) =>
      this.keys.delete(id),
    );
  }

  /** Listens for credential changes announced by other replicas. */
  start(): Promise<void> {
    return this.invalidation.start();
  }

  /** Stops listening. */
  stop(): Promise<void> {
    return this.invalidation.stop();
  }

  /** Announces that a credential changed, here and on every replica. */
  changed(credentialId: string): Promise<void> {
    return this.invalidation.announce(credentialId);
  }

  /** Reads a credential record of `resourceType` by id from its own tenant, or null. */
  async locate(resourceType: string, id: string): Promise<LocatedCredential | null> {
    const definition = this.registry.getResource(resourceType).storeDefinition;
    const scope = await this.store.locate(definition, id);
    if (!scope) return null;
    const record = await this.store.findById(definition, scope, id);
    return record ? { scope, record } : null;
  }

  /** The machine principal of a raw API key; refuses unknown, wrong, expired and rotated-out keys alike. */
  async authenticateApiKey(raw: string): Promise<MachinePrincipal> {
    const parsed = parseApiKey(raw);
    if (!parsed) throw invalidKey();
    const nowMs = this.clock.now().getTime();
    let entry = this.keys.get(parsed.keyId);
    if (!entry || nowMs - entry.loadedAtMs > CACHE_TTL_MS) {
      entry = await this.loadKey(parsed.scope, parsed.keyId, nowMs);
      if (!entry) throw invalidKey();
    }
    if (!this.secrets.matches(parsed.secret, entry.hashedKey) || nowMs >= entry.validUntilMs) throw invalidKey();
    return entry.principal;
  }

  private async loadKey(scope: ApiKeyScope, keyId: string, nowMs: number): Promise<CachedKey | undefined> {
    const type =
      scope === 'ORGANIZATION'
        ? CREDENTIAL_RESOURCE_TYPES.ORGANIZATION_API_KEYS
        : CREDENTIAL_RESOURCE_TYPES.APPLICATION_API_KEYS;
    const located = await this.locate(type, keyId);
    if (!located) return undefined;
    const data = located.record.data as {
      hashedKey: string;
      roles: string[];
      expiresAt?: string | null;
      invalidationDate?: string | null;
    };
    const limits = [data.expiresAt, data.invalidationDate]
      .filter((v): v is string => typeof v === 'string')
      .map((v) => new Date(v).getTime());
    const organizationId = located.scope.kind === 'organization' ? located.scope.organizationId : undefined;
    const principal: MachinePrincipal = {
      kind: 'machine',
      executionType: organizationId
        ? ExecutionContext_ExecutionType.ORGANIZATION_MACHINE
        : ExecutionContext_ExecutionType.APPLICATION_MACHINE,
      clientId: keyId,
      ...(organizationId ? { organizationId } : {}),
      roles: data.roles,
      credential: { type: 'api_key', id: keyId },
    };
    const entry: CachedKey = {
      hashedKey: data.hashedKey,
      principal,
      validUntilMs: limits.length > 0 ? Math.min(...limits) : Infinity,
      loadedAtMs: nowMs,
    };
    if (this.keys.size >= CACHE_SIZE) this.keys.delete(this.keys.keys().next().value as string);
    this.keys.set(keyId, entry);
    return entry;
  }
}
