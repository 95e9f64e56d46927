import { ConsumableToken_ConsumptionMode, CoreConsumableTokenTypes, DurationUnit } from '@wildo/shared-lib';
import { inject, injectable } from 'inversify';
import { SAAS_SERVICE_TYPES } from '../container/index.js';
import type { ConsumableTokenService } from '../identity/index.js';
import type { OAuthSettings } from './oauth-settings.js';

/** A validated authorization request waiting for the person's decision. */
export interface PendingAuthorization {
  clientId: string;
  clientName: string;
  redirectUri: string;
  state?: string;
  codeChallenge: string;
  resource: string;
  scopes: string[];
  nonce?: string;
}

/**
 * Consent-request tokens: the backend keeps the validated request; the consent page only carries an opaque,
 * single-use token (`OAUTH_CONSENT_REQUEST`) bound to the person, so a decision cannot change the client,
 * destination or scopes.
 */
@injectable()
export class ConsentRequestService {
  constructor(
    @inject(SAAS_SERVICE_TYPES.ConsumableTokenService) private readonly tokens: ConsumableTokenService,
    @inject(SAAS_SERVICE_TYPES.OAuthSettings) private readonly settings: OAuthSettings,
  ) {}

  /** Stores a pending request for `userId`; returns its token and lifetime. */
  async create(userId: string, request: PendingAuthorization): Promise<{ token: string; expiresIn: number }> {
    const { token, expiresIn } = await this.tokens.createToken({
      tokenType: CoreConsumableTokenTypes.OAUTH_CONSENT_REQUEST,
      consumptionMode: ConsumableToken_ConsumptionMode.SINGLE_USE,
      expiresIn: { value: this.settings.consentRequestLifetimeSeconds, unit: DurationUnit.SECONDS },
      userId,
      metadata: request,
    });
    return { token, expiresIn };
  }

  /** Uses a token once, for the person it was issued to; null when unknown, used, expired or someone else's. */
  async consume(token: string, userId: string): Promise<PendingAuthorization | null> {
    const consumed = await this.tokens.consume<PendingAuthorization>(token, {
      tokenType: CoreConsumableTokenTypes.OAUTH_CONSENT_REQUEST,
      userId,
    });
    return consumed?.metadata ?? null;
  }
}
