import { randomUUID } from 'node:crypto';
import { CORE_APP_ROLES, type CoreAppRole } from '@wildo/shared-lib';
import { inject, injectable } from 'inversify';
import { SAAS_SERVICE_TYPES, type Clock } from '../container/index.js';
import { FrameworkError } from '../errors/index.js';
import type { SqlDatabase, SqlExecutor } from '../persistence/index.js';
import type { PublicUser } from './identity.schema.js';
import type { PasswordHasher } from './password-hasher.service.js';
import type { PrincipalDirectory } from './principal-directory.js';

interface UserRow {
  id: string;
  email: string;
  display_name: string | null;
  password_hash: string;
  status: 'active' | 'disabled';
  app_roles: string[];
  authorization_version: number;
  email_verified_at: Date | string | null;
  created_at: Date | string;
}

/** What an application-role change did: the account as it is now, and whether anything changed. */
export interface ApplicationRoleChange {
  user: PublicUser;
  changed: boolean;
}

/** A user with what authentication needs. */
export interface AuthenticatedUser {
  user: PublicUser;
  authorizationVersion: number;
}

/** Normalizes an email for lookups: trimmed and lower-cased. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

const USER_COLUMNS =
  'id, email, display_name, password_hash, status, app_roles, authorization_version, email_verified_at, created_at';

/** An account to create from a sign-up whose address was just proven. */
export interface VerifiedSignup {
  email: string;
  passwordHash: string;
  displayName?: string | undefined;
}

/** Accounts: creation from a proven sign-up, password check, proven addresses, application roles and status (each role or status change bumps the authorization version). */
@injectable()
export class UsersService {
  constructor(
    @inject(SAAS_SERVICE_TYPES.Database) private readonly db: SqlDatabase,
    @inject(SAAS_SERVICE_TYPES.PasswordHasher) private readonly hasher: PasswordHasher,
    @inject(SAAS_SERVICE_TYPES.PrincipalDirectory) private readonly directory: PrincipalDirectory,
    @inject(SAAS_SERVICE_TYPES.Clock) private readonly clock: Clock,
  ) {}

  /**
   * Creates an account with APP_USER whose address is proven (its sign-up link was opened), or null when the address
   * already has an account. Nothing a person submits makes them an administrator: an operator grants APP_ADMIN on the
   * server (`wildo users grant-role`), or an administrator through the API.
   */
  async createVerified(signup: VerifiedSignup): Promise<AuthenticatedUser | null> {
    const roles = [CORE_APP_ROLES.APP_USER];
    const now = this.clock.now();
    const { rows } = await this.db.query<UserRow>(
      `INSERT INTO wildo_users (id, email, email_normalized, display_name, password_hash, status, app_roles, authorization_version, email_verified_at, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, 'active', $6, 1, $7, $7, $7)
       ON CONFLICT (email_normalized) DO NOTHING
       RETURNING ${USER_COLUMNS}`,
      [
        randomUUID(),
        signup.email.trim(),
        normalizeEmail(signup.email),
        signup.displayName ?? null,
        signup.passwordHash,
        JSON.stringify(roles),
        now,
      ],
    );
    const row = rows[0];
    return row ? { user: toPublicUser(row), authorizationVersion: row.authorization_version } : null;
  }

  /**
   * Records that the account proved its address: only while the account still has that address (normalized), so a
   * link mailed to a former address proves nothing. Returns the account, or null when it no longer matches.
   */
  async markEmailVerified(userId: string, emailNormalized: string): Promise<PublicUser | null> {
    const { rows } = await this.db.query<UserRow>(
      `UPDATE wildo_users SET email_verified_at = COALESCE(email_verified_at, $3), updated_at = $3
       WHERE id = $1 AND email_normalized = $2 AND status = 'active' RETURNING ${USER_COLUMNS}`,
      [userId, emailNormalized, this.clock.now()],
    );
    return rows[0] ? toPublicUser(rows[0]) : null;
  }

  /** Whether an account has this address (any letter case). */
  async emailTaken(email: string): Promise<boolean> {
    return (await this.findIdByEmail(email)) !== null;
  }

  /** The active user with this email and password, or null (same cost either way). */
  async verifyCredentials(email: string, password: string): Promise<AuthenticatedUser | null> {
    const { rows } = await this.db.query<UserRow>(
      `SELECT ${USER_COLUMNS} FROM wildo_users WHERE email_normalized = $1`,
      [normalizeEmail(email)],
    );
    const row = rows[0];
    if (!row) {
      await this.hasher.verifyDecoy(password);
      return null;
    }
    const ok = await this.hasher.verify(row.password_hash, password);
    if (!ok || row.status !== 'active') return null;
    return { user: toPublicUser(row), authorizationVersion: row.authorization_version };
  }

  /** Whether `password` is the current password of this active user (for step-up proofs). */
  async verifyPassword(userId: string, password: string): Promise<boolean> {
    const { rows } = await this.db.query<UserRow>(`SELECT ${USER_COLUMNS} FROM wildo_users WHERE id = $1`, [userId]);
    const row = rows[0];
    if (!row || row.status !== 'active') return this.hasher.verifyDecoy(password);
    return this.hasher.verify(row.password_hash, password);
  }

  /** A user by id, or null. */
  async getById(userId: string): Promise<PublicUser | null> {
    const { rows } = await this.db.query<UserRow>(`SELECT ${USER_COLUMNS} FROM wildo_users WHERE id = $1`, [userId]);
    return rows[0] ? toPublicUser(rows[0]) : null;
  }

  /** A user id by email, or null. */
  async findIdByEmail(email: string): Promise<string | null> {
    const { rows } = await this.db.query<{ id: string }>('SELECT id FROM wildo_users WHERE email_normalized = $1', [
      normalizeEmail(email),
    ]);
    return rows[0]?.id ?? null;
  }

  /** Replaces a user's application roles; outstanding tokens stop working. */
  async setApplicationRoles(userId: string, roles: readonly string[]): Promise<PublicUser> {
    return this.change(userId, 'app_roles = $2', [JSON.stringify([...new Set(roles)])]);
  }

  /** Enables or disables an account; outstanding tokens stop working. */
  async setStatus(userId: string, status: 'active' | 'disabled'): Promise<PublicUser> {
    return this.change(userId, 'status = $2', [status]);
  }

  /**
   * Grants or revokes one application role of the account with this email (any letter case). A change bumps
   * the authorization version (outstanding tokens stop working) and is announced to every replica; granting a
   * role the account has, or revoking one it lacks, changes nothing. An account keeps at least one role.
   */
  async changeApplicationRole(
    email: string,
    role: CoreAppRole,
    change: 'grant' | 'revoke',
  ): Promise<ApplicationRoleChange> {
    const outcome = await this.db.transaction(async (tx) => {
      const { rows } = await tx.query<UserRow>(
        `SELECT ${USER_COLUMNS} FROM wildo_users WHERE email_normalized = $1 FOR UPDATE`,
        [normalizeEmail(email)],
      );
      const row = rows[0];
      if (!row) throw new FrameworkError('NOT_FOUND', 'No account has this email.');
      const roles =
        change === 'grant' ? [...new Set([...row.app_roles, role])] : row.app_roles.filter((held) => held !== role);
      if (roles.length === row.app_roles.length) return { user: toPublicUser(row), changed: false };
      if (roles.length === 0) throw new FrameworkError('CONFLICT', 'An account keeps at least one application role.');
      return {
        user: toPublicUser(await this.update(tx, row.id, 'app_roles = $2', [JSON.stringify(roles)])),
        changed: true,
      };
    });
    if (outcome.changed) await this.directory.invalidate(outcome.user._id);
    return outcome;
  }

  private async change(userId: string, assignment: string, values: unknown[]): Promise<PublicUser> {
    const row = await this.update(this.db, userId, assignment, values);
    await this.directory.invalidate(userId);
    return toPublicUser(row);
  }

  /** Applies `assignment` and bumps the authorization version, in one statement. */
  private async update(executor: SqlExecutor, userId: string, assignment: string, values: unknown[]): Promise<UserRow> {
    const { rows } = await executor.query<UserRow>(
      `UPDATE wildo_users SET ${assignment}, authorization_version = authorization_version + 1, updated_at = $${values.length + 2}
       WHERE id = $1 RETURNING ${USER_COLUMNS}`,
      [userId, ...values, this.clock.now()],
    );
    const row = rows[0];
    if (!row) throw new FrameworkError('NOT_FOUND', 'No such user.');
    return row;
  }
}

function toPublicUser(row: UserRow): PublicUser {
  return {
    _id: row.id,
    email: row.email,
    displayName: row.display_name,
    appRoles: row.app_roles,
    emailVerified: row.email_verified_at !== null,
    createdAt: new Date(row.created_at).toISOString(),
  };
}
