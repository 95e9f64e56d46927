import { createCipheriv, createDecipheriv, randomBytes, randomUUID, type webcrypto } from 'node:crypto';
import { inject, injectable } from 'inversify';
import { exportJWK, generateKeyPair, importJWK, type JWK } from 'jose';
import { SAAS_SERVICE_TYPES, type Clock } from '../container/index.js';
import type { Logger } from '../logging/index.js';
import type { SqlDatabase } from '../persistence/index.js';
import type { PrimarySecret } from './primary-secret.js';

/** The signature algorithm of every token the engine issues. */
export const SIGNING_ALGORITHM = 'EdDSA';

interface LoadedKey {
  kid: string;
  publicJwk: JWK;
  publicKey: CryptoKey;
  privateKey?: CryptoKey;
  createdAt: number;
}

interface KeyRow {
  kid: string;
  public_jwk: JWK;
  private_jwk_sealed: string;
  created_at: Date | string;
}

/** A key lookup miss reloads from the database at most this often (an unknown kid is cheap to refuse). */
const RELOAD_INTERVAL_MS = 30_000;

type CryptoKey = webcrypto.CryptoKey;

/**
 * Asymmetric signing keys (Ed25519) shared by every replica through the database. Private keys are stored
 * sealed with AES-256-GCM under a key derived from the primary secret; public keys are published as a JWKS.
 */
@injectable()
export class SigningKeyService {
  private keys = new Map<string, LoadedKey>();
  private active?: LoadedKey;
  private lastReload = 0;

  constructor(
    @inject(SAAS_SERVICE_TYPES.Database) private readonly db: SqlDatabase,
    @inject(SAAS_SERVICE_TYPES.PrimarySecret) private readonly secret: PrimarySecret,
    @inject(SAAS_SERVICE_TYPES.Clock) private readonly clock: Clock,
    @inject(SAAS_SERVICE_TYPES.Logger) private readonly logger: Logger,
  ) {}

  /** Loads the keys, creating the first one when there is none. Call once at start. */
  async initialize(): Promise<void> {
    await this.reload();
    if (this.active) return;
    await this.createKey();
    await this.reload();
    if (!this.active) throw new Error('No signing key could be created.');
  }

  /** The key new tokens are signed with. */
  get signingKey(): { kid: string; privateKey: CryptoKey } {
    const key = this.active;
    if (!key?.privateKey) throw new Error('SigningKeyService used before initialize().');
    return { kid: key.kid, privateKey: key.privateKey };
  }

  /** The public key for a `kid`, reloading (rate-limited) when another replica created a key since. */
  async publicKeyFor(kid: string): Promise<CryptoKey | undefined> {
    const known = this.keys.get(kid);
    if (known) return known.publicKey;
    if (this.clock.now().getTime() - this.lastReload < RELOAD_INTERVAL_MS) return undefined;
    await this.reload();
    return this.keys.get(kid)?.publicKey;
  }

  /** The published key set (public parts only). */
  jwks(): { keys: JWK[] } {
    return {
      keys: [...this.keys.values()].map((k) => ({ ...k.publicJwk, kid: k.kid, alg: SIGNING_ALGORITHM, use: 'sig' })),
    };
  }

  private async createKey(): Promise<void> {
    const { publicKey, privateKey } = await generateKeyPair(SIGNING_ALGORITHM, { crv: 'Ed25519', extractable: true });
    const kid = randomUUID();
    const publicJwk = await exportJWK(publicKey);
    const privateJwk = await exportJWK(privateKey);
    await this.db.query(
      'INSERT INTO wildo_signing_keys (kid, alg, public_jwk, private_jwk_sealed, created_at) VALUES ($1, $2, $3, $4, $5)',
      [kid, SIGNING_ALGORITHM, JSON.stringify(publicJwk), this.seal(JSON.stringify(privateJwk)), this.clock.now()],
    );
    this.logger.info('created a token signing key', { kid });
  }

  private async reload(): Promise<void> {
    this.lastReload = this.clock.now().getTime();
    const { rows } = await this.db.query<KeyRow>(
      'SELECT kid, public_jwk, private_jwk_sealed, created_at FROM wildo_signing_keys WHERE retired_at IS NULL ORDER BY created_at ASC',
    );
    const next = new Map<string, LoadedKey>();
    for (const row of rows) {
      const existing = this.keys.get(row.kid);
      next.set(row.kid, existing ?? (await this.load(row)));
    }
    this.keys = next;
    this.active = [...next.values()].at(-1);
  }

  private async load(row: KeyRow): Promise<LoadedKey> {
    const privateJwk = JSON.parse(this.unseal(row.private_jwk_sealed, row.kid)) as JWK;
    return {
      kid: row.kid,
      publicJwk: row.public_jwk,
      publicKey: (await importJWK(row.public_jwk, SIGNING_ALGORITHM)) as CryptoKey,
      privateKey: (await importJWK(privateJwk, SIGNING_ALGORITHM)) as CryptoKey,
      createdAt: new Date(row.created_at).getTime(),
    };
  }

  private seal(plaintext: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.secret.derive('signing-keys'), iv);
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
  }

  private unseal(sealed: string, kid: string): string {
    try {
      const raw = Buffer.from(sealed, 'base64url');
      const decipher = createDecipheriv('aes-256-gcm', this.secret.derive('signing-keys'), raw.subarray(0, 12));
      decipher.setAuthTag(raw.subarray(12, 28));
      return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
    } catch (cause) {
      throw new Error(
        `Signing key ${kid} cannot be opened: it was sealed with a different WILDO_PRIMARY_SECRET. Restore that secret.`,
        { cause },
      );
    }
  }
}
