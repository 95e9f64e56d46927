// A small application with file fields, for the files tests: case files with multiple attachments and one cover.
import {
  CORE_ORG_ROLES,
  defineResource,
  ResourceOperationEffect,
  ResourceOperationVariantType,
  ResourcePrimaryScope,
  resourceRecordSchema,
  z_file,
} from '@wildo/shared-lib';
import type supertest from 'supertest';
import { expect } from 'vitest';
import { z } from 'zod';
import { defineBackendApplication } from '../bootstrap/backend-domain-module.js';
import type { TestUser } from '../../testing/identity.fixtures.js';
import { UPLOAD_GRANT_HEADER, type UploadGrantResponse } from './file-upload-grant.schema.js';

const API_CALL = ResourceOperationVariantType.API_CALL;
const exposed = (description: string) => ({ exposed: true, description });

/** The largest attachment the fixture accepts (small, so a test can exceed it cheaply). */
export const ATTACHMENT_MAX_BYTES = 2_048;

/** A case file: a title, attachments (text or PDF, several) and a cover image. */
export const CaseFileSchema = z.object({
  title: z.string().min(1).max(200),
  attachments: z_file({
    allowedMimeTypes: ['text/plain', 'application/pdf'],
    multiple: true,
    maxSizeBytes: ATTACHMENT_MAX_BYTES,
  }).optional(),
  cover: z_file({ allowedMimeTypes: ['image/png'], maxSizeBytes: 4_096 }).optional(),
  report: z_file({ allowedMimeTypes: ['application/pdf'], generated: true }).optional(),
});

const CaseFileRecordSchema = resourceRecordSchema(CaseFileSchema, ResourcePrimaryScope.ORGANIZATIONS);

/**
 * Members create and read case files; only managers update them. CREATE, UPDATE and READ are MCP tools. Two custom
 * operations copy a caller's file id into a record through the handler-facing records API (`open-with-cover`
 * creates through `utils.records`, `replace-cover` patches only the cover through `utils.resources`).
 */
export const caseFiles = defineResource({
  type: 'case-files',
  displayName: 'Case files',
  primaryScope: ResourcePrimaryScope.ORGANIZATIONS,
  schema: CaseFileSchema,
  customOperations: {
    'open-with-cover': {
      target: 'collection',
      requestSchema: z.strictObject({ title: z.string().min(1).max(200), coverFileId: z.string() }),
      responseSchema: CaseFileRecordSchema,
      effect: ResourceOperationEffect.WRITE,
      description: 'Opens a case file with a cover.',
    },
    'replace-cover': {
      target: 'instance',
      requestSchema: z.strictObject({ coverFileId: z.string() }),
      responseSchema: CaseFileRecordSchema,
      effect: ResourceOperationEffect.WRITE,
      description: 'Replaces the cover of a case file.',
    },
  },
  operationsConfiguration: {
    'open-with-cover': { variants: [{ variantType: API_CALL, roles: [CORE_ORG_ROLES.ORG_MEMBER] }] },
    'replace-cover': { variants: [{ variantType: API_CALL, roles: [CORE_ORG_ROLES.ORG_MEMBER] }] },
    create: {
      variants: [
        {
          variantType: API_CALL,
          isDefault: true,
          roles: [CORE_ORG_ROLES.ORG_MEMBER],
          mcp: exposed('Open a case file.'),
        },
      ],
    },
    read: {
      variants: [
        {
          variantType: API_CALL,
          isDefault: true,
          roles: [CORE_ORG_ROLES.ORG_MEMBER],
          mcp: exposed('Read a case file.'),
        },
      ],
    },
    update: {
      variants: [
        {
          variantType: API_CALL,
          isDefault: true,
          roles: [CORE_ORG_ROLES.ORG_MANAGER],
          mcp: exposed('Change a case file.'),
        },
      ],
    },
  },
});

/** The custom operations' handlers: each writes the caller's file id as given (the engine's check is the guard). */
export const caseFilesService = caseFiles.implement({
  'open-with-cover': async ({ input, utils }) =>
    utils.records.create({
      title: input.title,
      cover: { fileId: input.coverFileId, updatedAt: utils.now().toISOString() },
    }),
  'replace-cover': async ({ id, input, utils }) => {
    const cover = { fileId: input.coverFileId, updatedAt: utils.now().toISOString() };
    const updated = await utils.resources('case-files').update(id, { cover });
    if (!updated) throw utils.errorBuilder.notFound();
    return CaseFileRecordSchema.parse(updated);
  },
});

/** The files tests' application. */
export const filesTestApplication = defineBackendApplication({
  name: 'files-tests',
  modules: [{ name: 'case-files', resources: [caseFiles], customServiceImplementations: [caseFilesService] }],
});

/** Mints a grant at `url` (a record or collection URL plus `/files/<field>/grant`) and expects it minted. */
export async function mintGrant(
  api: supertest.Agent,
  user: TestUser,
  url: string,
  body: Record<string, unknown> = {},
): Promise<UploadGrantResponse> {
  const res = await api.post(url).set(user.auth).send(body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as UploadGrantResponse;
}

/** Uploads `content` with a grant's header to a path (the grant's own upload URL unless another is given). */
export function upload(
  api: supertest.Agent,
  grant: Pick<UploadGrantResponse, 'uploadUrl' | 'uploadHeader'>,
  file: { name: string; type: string; content: string | Buffer },
  path = new URL(grant.uploadUrl).pathname,
): supertest.Test {
  return api
    .post(path)
    .set(UPLOAD_GRANT_HEADER, grant.uploadHeader.value)
    .attach('file', Buffer.from(file.content), { filename: file.name, contentType: file.type });
}
