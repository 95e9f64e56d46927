import { Router } from 'express';
import { FrameworkError } from '../../errors/index.js';
import { httpState, requirePrincipal, sendData } from '../../routing/index.js';
import { throttleSourceOf } from '../../net/index.js';
import { parseContract, type RateLimitService } from '../../resources/index.js';
import {
  LoginRequestSchema,
  normalizeEmail,
  ReauthRequestSchema,
  SignupRequestSchema,
  type AccessTokenService,
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

/** Options of {@link createAuthRouter}. */
export interface AuthRouterOptions {
  users: UsersService;
  organizations: OrganizationsService;
  tokens: AccessTokenService;
  rateLimits: RateLimitService;
  /** Failure budgets of `POST /auth/login` (per source, per account and source, per account). */
  loginThrottle: LoginThrottle;
  stepUp: StepUpService;
}

/** `POST /auth/signup`, `POST /auth/login`, `POST /auth/reauth`, `GET /auth/me`. */
export function createAuthRouter(options: AuthRouterOptions): Router {
  const router = Router();

  router.post('/auth/signup', async (req, res) => {
    await options.rateLimits.charge(`signup:${throttleSourceOf(req.ip)}`, SIGNUP_POLICY);
    const request = parseContract(SignupRequestSchema, req.body ?? {});
    const { user, authorizationVersion } = await options.users.signup(request);
    const token = await options.tokens.issueUserAccessToken({ id: user._id, authorizationVersion });
    sendData(res, 201, { user, ...token });
  });

  router.post('/auth/login', async (req, res) => {
    const request = parseContract(LoginRequestSchema, req.body ?? {});
    const verified = await options.loginThrottle.guard(normalizeEmail(request.email), req.ip, () =>
      options.users.verifyCredentials(request.email, request.password),
    );
    if (!verified)
      throw new FrameworkError('UNAUTHENTICATED', 'The email or password is incorrect.', {
        reason: 'credential_invalid',
      });
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

/** `GET /.well-known/jwks.json`: the public keys tokens are signed with. */
export function createJwksRouter(keys: SigningKeyService): Router {
  const router = Router();
  router.get('/.well-known/jwks.json', (_req, res) => {
    res.setHeader('cache-control', 'public, max-age=300');
    res.json(keys.jwks());
  });
  return router;
}
