import express, { type NextFunction, type Request, type RequestHandler, type Response, type Router } from 'express';
import { FrameworkError } from '../errors/index.js';
import { httpState, param } from '../routing/index.js';
import { checkRecordId } from '../resources/index.js';
import { toInputProblems } from '../resources/schema/index.js';
import type { FileUploadRedemption } from './file-upload-redemption.js';
import {
  MintUploadGrantBodySchema,
  UPLOAD_GRANT_HEADER,
  type UploadGrantOperation,
} from './file-upload-grant.schema.js';
import type { FileUploadGrantService, UploadTarget } from './file-upload-grant.service.js';

/** Options of {@link createFileGrantRouter} and {@link createFileUploadRouter}. */
export interface FileRoutesOptions {
  grants: FileUploadGrantService;
  redemption: FileUploadRedemption;
}

const OPERATIONS: readonly UploadGrantOperation[] = ['create', 'update'];

/** Each parent operation path (`/organizations/:organizationId/knowledge-documents[/:id]`) with its resource and operation. */
function parentRoutes(
  grants: FileUploadGrantService,
): { path: string; resourceType: string; operation: UploadGrantOperation }[] {
  const routes: { path: string; resourceType: string; operation: UploadGrantOperation }[] = [];
  for (const resourceType of grants.uploadableFields.keys()) {
    for (const operation of OPERATIONS) {
      const path = grants.operationOf(resourceType, operation)?.http?.path;
      if (path) routes.push({ path, resourceType, operation });
    }
  }
  return routes;
}

function targetOf(req: Request, resourceType: string, operation: UploadGrantOperation): UploadTarget {
  const organizationId = param(req, 'organizationId');
  return {
    resourceType,
    operation,
    route: {
      fieldName: param(req, 'field'),
      ...(organizationId ? { organizationId } : {}),
      ...(operation === 'update' ? { recordId: checkRecordId(param(req, 'id')) } : {}),
    },
  };
}

const handled =
  (handler: (req: Request, res: Response) => Promise<void>): RequestHandler =>
  (req: Request, res: Response, next: NextFunction) => {
    handler(req, res).catch(next);
  };

/**
 * `POST <record URL>/files/<field>/grant` (update) and `POST <collection URL>/files/<field>/grant` (create): mint an
 * upload grant. Mounted after the API's body parsing and authentication; answers the grant itself (201).
 */
export function createFileGrantRouter(options: FileRoutesOptions): Router {
  const router = express.Router();
  for (const { path, resourceType, operation } of parentRoutes(options.grants)) {
    router.post(
      `${path}/files/:field/grant`,
      handled(async (req, res) => {
        const body: unknown = req.body ?? {};
        const parsed = MintUploadGrantBodySchema.safeParse(body);
        if (!parsed.success) {
          throw new FrameworkError('VALIDATION_FAILED', 'The grant request does not satisfy its contract.', {
            reason: 'input_invalid',
            problems: toInputProblems(parsed.error.issues, body),
          });
        }
        const { expiresInMinutes, ...declared } = parsed.data;
        const target = targetOf(req, resourceType, operation);
        const state = httpState(res);
        const grant = await options.grants.mint({
          principal: state.principal,
          presentedConsumableToken: req.get(UPLOAD_GRANT_HEADER) !== undefined,
          surface: 'rest',
          requestId: state.requestId,
          ...target,
          declared,
          ...(expiresInMinutes === undefined ? {} : { expiresInMinutes }),
        });
        res.setHeader('cache-control', 'no-store');
        res.status(201).json(grant);
      }),
    );
  }
  return router;
}

/** Reads a request body up to `limitBytes`, refusing a longer one with `PAYLOAD_TOO_LARGE` (and dropping the rest). */
function bodyReader(req: Request): (limitBytes: number) => Promise<Buffer> {
  return (limitBytes) =>
    new Promise((resolve, reject) => {
      const chunks: Buffer[] = [];
      let length = 0;
      const onData = (chunk: Buffer) => {
        length += chunk.length;
        if (length > limitBytes) {
          req.off('data', onData);
          req.resume();
          reject(new FrameworkError('PAYLOAD_TOO_LARGE', `The upload exceeds ${limitBytes} bytes.`));
          return;
        }
        chunks.push(chunk);
      };
      req.on('data', onData);
      req.once('end', () => resolve(Buffer.concat(chunks)));
      req.once('error', reject);
    });
}

/**
 * Lets the drop page call the upload and status routes from the configured frontend's origin (and no other): the
 * page sends the grant header, so a cross-origin upload is preflighted.
 */
function dropPageCors(grants: FileUploadGrantService): RequestHandler {
  return (req, res, next) => {
    const origin = req.get('origin');
    if (origin === undefined || origin !== grants.frontendOrigin()) return next();
    res.setHeader('access-control-allow-origin', origin);
    res.setHeader('vary', 'Origin');
    if (req.method !== 'OPTIONS') return next();
    res.setHeader('access-control-allow-methods', 'GET, POST');
    res.setHeader('access-control-allow-headers', `${UPLOAD_GRANT_HEADER}, content-type`);
    res.setHeader('access-control-max-age', '600');
    res.status(204).end();
  };
}

/**
 * The grant holder's routes, which need no session: `POST <parent URL>/files/<field>/upload` (the grant in
 * `x-wildo-upload-grant`, the file as multipart `file`) and `GET /files/upload-grants/<handle>` (the status URL).
 * Mounted before the API's JSON body parsing and authentication.
 */
export function createFileUploadRouter(options: FileRoutesOptions): Router {
  const router = express.Router();
  const cors = dropPageCors(options.grants);
  router.use('/files/upload-grants/:handle', cors);
  for (const { path, resourceType, operation } of parentRoutes(options.grants)) {
    router.use(`${path}/files/:field/upload`, cors);
    router.post(
      `${path}/files/:field/upload`,
      handled(async (req, res) => {
        const length = req.get('content-length');
        const outcome = await options.redemption.redeem({
          token: req.get(UPLOAD_GRANT_HEADER),
          target: targetOf(req, resourceType, operation),
          contentType: req.get('content-type'),
          contentLength: length === undefined ? undefined : Number(length),
          readBody: bodyReader(req),
        });
        res.setHeader('cache-control', 'no-store');
        res.status(201).json(outcome);
      }),
    );
  }
  router.get(
    '/files/upload-grants/:handle',
    handled(async (req, res) => {
      const status = await options.grants.status(param(req, 'handle'));
      res.setHeader('cache-control', 'no-store');
      res.json(status);
    }),
  );
  return router;
}
