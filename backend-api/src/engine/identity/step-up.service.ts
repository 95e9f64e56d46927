import {
  ConsumableToken_ConsumptionMode,
  CoreConsumableTokenTypes,
  DurationUnit,
  type Duration,
} from '@wildo/shared-lib';
import { inject, injectable } from 'inversify';
import { SAAS_SERVICE_TYPES } from '../container/index.js';
import type { ConsumableTokenService } from './consumable-tokens.service.js';

/** How long a step-up proof may wait before it is used. */
export const REAUTH_PROOF_LIFETIME: Duration = { value: 5, unit: DurationUnit.MINUTES };

/** A fresh proof that the person just re-entered a credential. */
export interface ReauthProof {
  reAuthToken: string;
  expiresIn: number;
}

/**
 * Step-up proofs for sensitive operations (key rotation, ...): issued after a fresh password check as
 * single-use consumable tokens (`REAUTH_PROOF`) bound to one user and short-lived.
 */
@injectable()
export class StepUpService {
  constructor(@inject(SAAS_SERVICE_TYPES.ConsumableTokenService) private readonly tokens: ConsumableTokenService) {}

  /** Issues a proof for a user whose credential was just verified. */
  async issue(userId: string): Promise<ReauthProof> {
    const { token, expiresIn } = await this.tokens.createToken({
      tokenType: CoreConsumableTokenTypes.REAUTH_PROOF,
      consumptionMode: ConsumableToken_ConsumptionMode.SINGLE_USE,
      expiresIn: REAUTH_PROOF_LIFETIME,
      userId,
    });
    return { reAuthToken: token, expiresIn };
  }

  /** Uses a proof: true once for an unexpired proof of this user, false for anything else. */
  async consume(reAuthToken: string, userId: string): Promise<boolean> {
    return (
      (await this.tokens.consume(reAuthToken, { tokenType: CoreConsumableTokenTypes.REAUTH_PROOF, userId })) !== null
    );
  }
}
