import { createHash } from 'node:crypto';
import { ExecutionContext_ExecutionType } from '@wildo/shared-lib';
import { inject, injectable } from 'inversify';
import { SAAS_SERVICE_TYPES, type Clock } from '../container/index.js';
import { FrameworkError } from '../errors/index.js';
import type { Logger } from '../logging/index.js';
import type { ResourceStore, StoredRecord, TenantScope } from '../persistence/index.js';
import { insertRecord, patchRecord, type ExecutionContext, type ResourcesRegistry } from '../resources/index.js';
import { OAUTH_CONSENT_GRANTS } from './consent-grants.resource.js';
import type { OAuthSettings } from './oauth-settings.js';

interface GrantData {
  clientId: string;
  clientName: string;
  resource: string;
  scopes: string[];
  expiresAt: string;
}

/**
 * Remembered consent, keyed by person, client and resource (the record id is derived from the three, so two
 * simultaneous first approvals meet on one record). Only an unexpired grant covering every requested scope
 * skips the prompt; a failed read counts as no grant, so the person is asked again.
 */
@injectable()
export class ConsentGrantsService {
  constructor(
    @inject(SAAS_SERVICE_TYPES.ResourcesRegistry) private readonly registry: ResourcesRegistry,
    @inject(SAAS_SERVICE_TYPES.ResourceStore) private readonly store: ResourceStore,
    @inject(SAAS_SERVICE_TYPES.OAuthSettings) private readonly settings: OAuthSettings,
    @inject(SAAS_SERVICE_TYPES.Clock) private readonly clock: Clock,
    @inject(SAAS_SERVICE_TYPES.Logger) private readonly logger: Logger,
  ) {}

  /** Whether the person has an unexpired remembered consent covering every requested scope. */
  async hasCoveringConsentGrant(
    userId: string,
    clientId: string,
    resource: string | undefined,
    requestedScopes: readonly string[],
  ): Promise<boolean> {
    try {
      if (!resource) return false;
      const grant = await this.read(userId, clientId, resource);
      if (!grant) return false;
      const data = grant.data as unknown as GrantData;
      if (new Date(data.expiresAt).getTime() <= this.clock.now().getTime()) return false;
      const granted = new Set(data.scopes);
      return requestedScopes.every((s) => granted.has(s));
    } catch (error) {
      this.logger.warn('consent store unreadable; the person will be asked', { error: String(error) });
      return false;
    }
  }

  /** Creates or widens the remembered consent after an affirmative approval, renewing its expiry. */
  async rememberApproval(
    userId: string,
    client: { clientId: string; clientName: string },
    resource: string,
    scopes: readonly string[],
  ): Promise<void> {
    const context = this.systemContextFor(userId);
    const resolve = (type: string) => this.registry.getResource(type);
    const compiled = this.registry.getResource(OAUTH_CONSENT_GRANTS);
    const expiresAt = new Date(
      this.clock.now().getTime() + this.settings.consentGrantLifetimeDays * 86_400_000,
    ).toISOString();
    const id = grantIdOf(userId, client.clientId, resource);
    for (let attempt = 0; attempt < 2; attempt++) {
      const existing = await this.store.findById(compiled.storeDefinition, context.tenant, id);
      if (existing) {
        const widened = [...new Set([...((existing.data as unknown as GrantData).scopes ?? []), ...scopes])].sort();
        await patchRecord(this.store, resolve, compiled, context, id, {
          scopes: widened,
          expiresAt,
          clientName: client.clientName,
        });
        return;
      }
      try {
        const data: GrantData = {
          clientId: client.clientId,
          clientName: client.clientName,
          resource,
          scopes: [...new Set(scopes)].sort(),
          expiresAt,
        };
        await insertRecord(this.store, resolve, compiled, context, { ...data }, id);
        return;
      } catch (error) {
        // A simultaneous first approval inserted the record: read it again and widen it.
        if (!(error instanceof FrameworkError && error.code === 'CONFLICT')) throw error;
      }
    }
  }

  private read(userId: string, clientId: string, resource: string): Promise<StoredRecord | null> {
    const scope: TenantScope = { kind: 'user', userId };
    return this.store.findById(
      this.registry.getResource(OAUTH_CONSENT_GRANTS).storeDefinition,
      scope,
      grantIdOf(userId, clientId, resource),
    );
  }

  /** The consent decision writes on the person's behalf, in their own scope. */
  private systemContextFor(userId: string): ExecutionContext {
    return {
      executionType: ExecutionContext_ExecutionType.USER,
      initiatorIds: { userId },
      initiatorRoles: [],
      tenant: { kind: 'user', userId },
      surface: 'internal',
      requestId: `consent-${userId}`,
      callTimestamp: this.clock.now().toISOString(),
    };
  }
}

/** The record id of a person's remembered consent for one client and resource. */
export function grantIdOf(userId: string, clientId: string, resource: string): string {
  return createHash('sha256').update(`${userId}\u0000${clientId}\u0000${resource}`).digest('hex');
}
