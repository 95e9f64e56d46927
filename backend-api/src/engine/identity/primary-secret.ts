import { hkdfSync, randomBytes } from 'node:crypto';
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from '../logging/index.js';
import { createFileExclusively } from '../persistence/index.js';

/** The application's primary secret; every signing and sealing key derives from it. */
export interface PrimarySecret {
  /** A 32-byte key for one purpose (`signing-keys`, `approvals`, ...); the same purpose always gives the same key. */
  derive(purpose: string): Buffer;
}

const MIN_SECRET_LENGTH = 32;

/** Wraps raw secret material. */
export function primarySecretFrom(material: string): PrimarySecret {
  if (material.length < MIN_SECRET_LENGTH) {
    throw new Error(
      `WILDO_PRIMARY_SECRET must be at least ${MIN_SECRET_LENGTH} characters (use e.g. \`openssl rand -base64 48\`).`,
    );
  }
  const ikm = Buffer.from(material, 'utf8');
  const cache = new Map<string, Buffer>();
  return {
    derive(purpose) {
      let key = cache.get(purpose);
      if (!key) {
        key = Buffer.from(hkdfSync('sha256', ikm, 'wildo.primary-secret.v1', purpose, 32));
        cache.set(purpose, key);
      }
      return key;
    },
  };
}

/**
 * Resolves the primary secret: `WILDO_PRIMARY_SECRET` when set; otherwise, outside production, a development
 * secret generated once and kept in the data directory (with a warning, since it is not meant for deployment).
 */
export async function resolvePrimarySecret(options: {
  configured?: string;
  production: boolean;
  dataDir?: string;
  logger: Logger;
}): Promise<PrimarySecret> {
  if (options.configured) return primarySecretFrom(options.configured);
  if (options.production) {
    throw new Error('WILDO_PRIMARY_SECRET is required in production: signing keys and approvals derive from it.');
  }
  if (!options.dataDir) {
    options.logger.warn('no WILDO_PRIMARY_SECRET: using an ephemeral development secret (tokens die with the process)');
    return primarySecretFrom(randomBytes(48).toString('base64url'));
  }
  const material = await readOrCreateDevelopmentSecret(options.dataDir);
  options.logger.warn(
    'no WILDO_PRIMARY_SECRET: using the development secret stored in the data directory; set one before deploying',
  );
  return primarySecretFrom(material);
}

/**
 * The development secret in `dataDir`, generated on first use. Created exclusively and whole: when two
 * processes share the directory (PostgreSQL replicas take no data directory lock), the second reads the
 * first one's secret instead of replacing it, so both sign with the same keys.
 */
async function readOrCreateDevelopmentSecret(dataDir: string): Promise<string> {
  const file = path.join(dataDir, 'dev-primary-secret');
  try {
    return (await readFile(file, 'utf8')).trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const material = randomBytes(48).toString('base64url');
  await mkdir(dataDir, { recursive: true });
  if (await createFileExclusively(file, `${material}\n`, 0o600)) return material;
  return (await readFile(file, 'utf8')).trim();
}
