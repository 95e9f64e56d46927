import { Router, type Response } from 'express';
import { FrameworkError } from '../../errors/index.js';
import { httpState, requirePrincipal, sendData } from '../../routing/index.js';
import { throttleSourceOf } from '../../net/index.js';
import { parseContract, type RateLimitService } from '../../resources/index.js';
import {
  EMAIL_LINK_LIFETIME_HOURS,
  LoginRequestSchema,
  normalizeEmail,
  ReauthRequestSchema,
  SignupRequestSchema,
  VerifyEmailRequestSchema,
  type AccessTokenService,
  type DeviceCookies,
  type EmailOwnershipService,
  type OrganizationsService,
  type SigningKeyService,
  type StepUpService,
  type UsersService,
} from '../index.js';
import type { LoginThrottle } from './login-throttle.js';

/** Re-authentication attempts per signed-in person per 15 minutes. */
const REAUTH_POLICY = { points: 20, durationMs: 15 * 60_000 };
/** Sign-ups per client address per hour. */
const SIGNUP_POLICY = { points: 30, durationMs: 60 * 60_000 };
/** Sign-up mails to one address per hour (nobody can flood a person's inbox through the form). */
const SIGNUP_ADDRESS_POLICY = { points: 5, durationMs: 60 * 60_000 };
/** Links opened per client address per 15 minutes. */
const VERIFY_POLICY = { points: 60, durationMs: 15 * 60_000 };
/** Verification mails a signed-in person may ask for per hour. */
const VERIFICATION_MAIL_POLICY = { points: 5, durationMs: 60 * 60_000 };

/** Options of {@link createAuthRouter}. */
export interface AuthRouterOptions {
  users: UsersService;
  organizations: OrganizationsService;
  tokens: AccessTokenService;
  rateLimits: RateLimitService;
  /** Failure budgets of `POST /auth/login` (per known device; per source, per account and source, per account). */
  loginThrottle: LoginThrottle;
  /** The cookies that mark a device as having signed in to an account before. */
  devices: DeviceCookies;
  stepUp: StepUpService;
  ownership: EmailOwnershipService;
}

/**
 * `POST /auth/signup` (mails a link; 202 for every address), `POST /auth/verify-email` (opens it: the new account,
 * signed in, or an address proven), `POST /auth/email-verification` (mails a signed-in account's own address a
 * link), `POST /auth/login`, `POST /auth/reauth`, `GET /auth/me`.
 */
export function createAuthRouter(options: AuthRouterOptions): Router {
  const router = Router();

  router.post('/auth/signup', async (req, res) => {
    await options.rateLimits.charge(`signup:${throttleSourceOf(req.ip)}`, SIGNUP_POLICY);
    const request = parseContract(SignupRequestSchema, req.body ?? {});
    await options.rateLimits.charge(`signup:address:${normalizeEmail(request.email)}`, SIGNUP_ADDRESS_POLICY);
    await options.ownership.requestSignup(request);
    // The same answer for a new address and a registered one: the mail says which.
    sendData(res, 202, { status: 'check_email', linkLifetimeHours: EMAIL_LINK_LIFETIME_HOURS });
  });

  router.post('/auth/verify-email', async (req, res) => {
    await options.rateLimits.charge(`verify-email:${throttleSourceOf(req.ip)}`, VERIFY_POLICY);
    const { token } = parseContract(VerifyEmailRequestSchema, req.body ?? {});
    const outcome = await options.ownership.openLink(token);
    if ('verified' in outcome) return sendData(res, 200, { user: outcome.verified });
    const { user, authorizationVersion } = outcome.created;
    const issued = await options.tokens.issueUserAccessToken({ id: user._id, authorizationVersion });
    rememberDevice(res, options.devices, normalizeEmail(user.email), undefined);
    sendData(res, 201, { user, ...issued });
  });

  router.post('/auth/email-verification', async (_req, res) => {
    const principal = requirePrincipal(res);
    if (principal.kind !== 'user')
      throw new FrameworkError('FORBIDDEN', 'Only a person has an address to confirm.', {
        reason: 'principal_not_allowed',
      });
    await options.rateLimits.charge(`verification-mail:${principal.userId}`, VERIFICATION_MAIL_POLICY);
    await options.ownership.requestVerification(principal.userId);
    sendData(res, 202, { status: 'check_email', linkLifetimeHours: EMAIL_LINK_LIFETIME_HOURS });
  });

  router.post('/auth/login', async (req, res) => {
    const request = parseContract(LoginRequestSchema, req.body ?? {});
    const account = normalizeEmail(request.email);
    const device = options.devices.read(req.get('cookie'), account);
    const verified = await options.loginThrottle.guard(account, { ip: req.ip, device }, () =>
      options.users.verifyCredentials(request.email, request.password),
    );
    if (!verified)
      throw new FrameworkError('UNAUTHENTICATED', 'The email or password is incorrect.', {
        reason: 'credential_invalid',
      });
    rememberDevice(res, options.devices, account, device);
    const token = await options.tokens.issueUserAccessToken({
      id: verified.user._id,
      authorizationVersion: verified.authorizationVersion,
    });
    sendData(res, 200, { user: verified.user, ...token });
  });

  router.post('/auth/reauth', async (req, res) => {
    const principal = requirePrincipal(res);
    if (principal.kind !== 'user')
      throw new FrameworkError('FORBIDDEN', 'Only a person can re-authenticate.', { reason: 'principal_not_allowed' });
    const request = parseContract(ReauthRequestSchema, req.body ?? {});
    await options.rateLimits.charge(`reauth:${principal.userId}`, REAUTH_POLICY);
    if (!(await options.users.verifyPassword(principal.userId, request.password))) {
      throw new FrameworkError('UNAUTHENTICATED', 'The password is incorrect.', { reason: 'credential_invalid' });
    }
    sendData(res, 200, await options.stepUp.issue(principal.userId));
  });

  router.get('/auth/me', async (_req, res) => {
    const principal = requirePrincipal(res);
    if (principal.kind !== 'user')
      throw new FrameworkError('FORBIDDEN', 'This endpoint is for signed-in users.', {
        reason: 'principal_not_allowed',
      });
    const user = await options.users.getById(principal.userId);
    if (!user)
      throw new FrameworkError('UNAUTHENTICATED', 'This account cannot be used.', { reason: 'principal_denied' });
    sendData(res, 200, {
      user,
      organizations: await options.organizations.listForUser(principal.userId),
      requestId: httpState(res).requestId,
    });
  });

  return router;
}

/** Marks the device a sign-in succeeded on as known to the account (its cookie renewed, or a first one). */
function rememberDevice(res: Response, devices: DeviceCookies, account: string, device: string | undefined): void {
  const cookie = devices.issue(account, device);
  res.cookie(cookie.name, cookie.value, cookie.options);
}

/** `GET /.well-known/jwks.json`: the public keys tokens are signed with. */
export function createJwksRouter(keys: SigningKeyService): Router {
  const router = Router();
  router.get('/.well-known/jwks.json', (_req, res) => {
    res.setHeader('cache-control', 'public, max-age=300');
    res.json(keys.jwks());
  });
  return router;
}
