import { OAuthAuthorizeRequestSchema, OAuthConsentDecisionRequestSchema } from '@wildo/shared-lib';
import express, { Router, type NextFunction, type Request, type Response } from 'express';
import type { CounterPolicy } from '../coordination/index.js';
import { FrameworkError } from '../errors/index.js';
import { requirePrincipal, sendData } from '../routing/index.js';
import type { UserPrincipal } from '../identity/index.js';
import type { Logger } from '../logging/index.js';
import { parseContract, type RateLimitService } from '../resources/index.js';
import { unstorableTextProblem } from '../resources/schema/index.js';
import type { AuthorizationService } from './authorization.service.js';
import { InvalidClientMetadataError, InvalidRequestError, OAuthError } from './oauth.errors.js';
import type { OAuthSettings } from './oauth-settings.js';
import type { RegistrationService } from './registration.service.js';
import type { TokenEndpointService, TokenRequestParams } from './token-endpoint.service.js';

/** The signed-in person behind a first-party token (delegated tokens and machines cannot consent). */
function person(res: Response): UserPrincipal {
  const principal = requirePrincipal(res);
  if (principal.kind !== 'user' || principal.credential.type !== 'access_token') {
    throw new FrameworkError('FORBIDDEN', 'Only a signed-in person can authorize an application.', {
      reason: 'principal_not_allowed',
    });
  }
  return principal;
}

/** `POST /oauth/authorize` and `POST /oauth/authorize/decision`, called by the consent page (JSON, bearer). */
export function createAuthorizationRouter(authorization: AuthorizationService): Router {
  const router = Router();
  router.post('/oauth/authorize', async (req, res) => {
    const principal = person(res);
    const request = parseContract(OAuthAuthorizeRequestSchema, req.body ?? {});
    sendData(res, 200, await authorization.authorize(principal, request));
  });
  router.post('/oauth/authorize/decision', async (req, res) => {
    const principal = person(res);
    const request = parseContract(OAuthConsentDecisionRequestSchema, req.body ?? {});
    sendData(res, 200, {
      redirect_to: await authorization.decide(principal, request.consent_token, request.decision, request.remember),
    });
  });
  return router;
}

/** Sends an OAuth error body (RFC 6749 §5.2); unexpected errors become `server_error` without detail. */
function sendOAuthError(error: unknown, res: Response, logger: Logger, basicAuth: boolean): void {
  const oauth = error instanceof OAuthError ? error : undefined;
  if (!oauth) logger.error('oauth endpoint failed', { error: error instanceof Error ? error.message : String(error) });
  const status = oauth?.status ?? 500;
  if (status === 401 && basicAuth) res.setHeader('www-authenticate', 'Basic realm="wildo"');
  res
    .status(status)
    .json(
      oauth
        ? oauth.toResponseBody()
        : { error: 'server_error', error_description: 'The server could not complete the request.' },
    );
}

/**
 * The sentence refusing a body that holds text the database cannot store (NUL, a lone surrogate), naming the
 * parameter when its name may be repeated; undefined when the body can be stored.
 */
function unstorableParameter(body: unknown): string | undefined {
  const problem = unstorableTextProblem(body, '');
  if (!problem) return undefined;
  return `${problem.path ? `The ${problem.path} parameter` : 'A parameter name'} must be ${problem.expected}.`;
}

/** Flattens form parameters, refusing repeated ones (RFC 6749 §3.2: parameters must not be included more than once). */
function singleValued(body: unknown): TokenRequestParams {
  const unstorable = unstorableParameter(body);
  if (unstorable) throw new InvalidRequestError(unstorable);
  const params: Record<string, string> = {};
  for (const [key, value] of Object.entries((body ?? {}) as Record<string, unknown>)) {
    if (typeof value !== 'string') throw new InvalidRequestError(`The ${key.slice(0, 40)} parameter must appear once.`);
    params[key] = value;
  }
  return params;
}

/**
 * `POST /oauth/token` (form-encoded; no session, client authentication only) and dynamic registration
 * `POST /oauth/register` + RFC 7592 read/delete. Mounted before the API's JSON parser and bearer check.
 */
export function createTokenAndRegistrationRouter(options: {
  tokens: TokenEndpointService;
  registration: RegistrationService;
  settings: OAuthSettings;
  rateLimits: RateLimitService;
  logger: Logger;
}): Router {
  const router = Router();
  const form = express.urlencoded({ extended: false, limit: 16 * 1024, parameterLimit: 50 });
  const json = express.json({ limit: 32 * 1024 });
  const noStore = (_req: Request, res: Response, next: NextFunction) => {
    res.setHeader('cache-control', 'no-store');
    res.setHeader('pragma', 'no-cache');
    next();
  };

  router.post(
    '/oauth/token',
    noStore,
    (req, res, next) => {
      if (!req.is('application/x-www-form-urlencoded'))
        return sendOAuthError(
          new InvalidRequestError('Send the token request as application/x-www-form-urlencoded.'),
          res,
          options.logger,
          false,
        );
      form(req, res, (error?: unknown) =>
        error
          ? sendOAuthError(new InvalidRequestError('The request body could not be read.'), res, options.logger, false)
          : next(),
      );
    },
    async (req, res) => {
      const authorization = req.get('authorization');
      try {
        sendTokenResponse(res, await options.tokens.handle(singleValued(req.body), authorization));
      } catch (error) {
        sendOAuthError(error, res, options.logger, authorization !== undefined && /^basic /i.test(authorization));
      }
    },
  );

  const registrationOn = (_req: Request, _res: Response, next: NextFunction) => {
    // Off by default: the endpoint then does not exist (404) and discovery does not advertise it.
    if (!options.settings.dynamicClientRegistration.enabled)
      return next(new FrameworkError('NOT_FOUND', 'No such endpoint.'));
    next();
  };
  const perIp: CounterPolicy = {
    points: options.settings.dynamicClientRegistration.maxRegistrationsPerHourPerIp,
    durationMs: 3_600_000,
  };

  router.post(
    '/oauth/register',
    registrationOn,
    noStore,
    async (req, res, next) => {
      try {
        await options.rateLimits.charge(`dcr:${req.ip ?? 'unknown'}`, perIp);
      } catch (error) {
        return next(error);
      }
      json(req, res, (error?: unknown) =>
        error
          ? sendOAuthError(
              new OAuthError('invalid_client_metadata', 'The registration body is not valid JSON.'),
              res,
              options.logger,
              false,
            )
          : next(),
      );
    },
    async (req, res) => {
      // RFC 7591 §3.2.2 names metadata a server refuses `invalid_client_metadata`.
      const unstorable = unstorableParameter(req.body);
      if (unstorable) return sendOAuthError(new InvalidClientMetadataError(unstorable), res, options.logger, false);
      try {
        res.status(201).json(await options.registration.register(req.body));
      } catch (failure) {
        sendOAuthError(failure, res, options.logger, false);
      }
    },
  );

  router.get('/oauth/register/:clientId', registrationOn, noStore, async (req, res) => {
    const metadata = await options.registration.read(String(req.params.clientId), bearerOf(req));
    if (!metadata)
      return void res
        .status(401)
        .setHeader('www-authenticate', 'Bearer error="invalid_token"')
        .json({ error: 'invalid_token', error_description: 'The registration access token is not valid.' });
    res.json(metadata);
  });

  router.delete('/oauth/register/:clientId', registrationOn, async (req, res) => {
    if (!(await options.registration.remove(String(req.params.clientId), bearerOf(req)))) {
      return void res
        .status(401)
        .setHeader('www-authenticate', 'Bearer error="invalid_token"')
        .json({ error: 'invalid_token', error_description: 'The registration access token is not valid.' });
    }
    res.status(204).end();
  });
  return router;
}

function bearerOf(req: Request): string {
  const header = req.get('authorization') ?? '';
  return /^bearer /i.test(header) ? header.slice(7).trim() : '';
}

function sendTokenResponse(res: Response, body: object): void {
  res.status(200).json(body);
}
