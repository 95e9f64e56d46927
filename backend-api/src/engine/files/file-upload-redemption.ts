import { CoreConsumableTokenTypes } from '@wildo/shared-lib';
import type { Clock } from '../container/index.js';
import { FrameworkError, type InputProblem } from '../errors/index.js';
import type { ConsumableTokenService } from '../identity/index.js';
import type { Logger } from '../logging/index.js';
import type { FileField } from './file-fields.js';
import type { FileRecordsService } from './file-records.service.js';
import {
  FileNameSchema,
  type DeclaredFile,
  type FileUploadGrantMetadata,
  type UploadedFileDescription,
} from './file-upload-grant.schema.js';
import {
  describeFile,
  essenceOf,
  fileFactsProblems,
  type FileUploadGrantService,
  type UploadTarget,
} from './file-upload-grant.service.js';

/** Room for the multipart envelope (boundaries, part headers) around the file's own bytes. */
const MULTIPART_OVERHEAD_BYTES = 64 * 1024;

/** One upload as the route received it: the grant, the route it came to and a way to read its body. */
export interface UploadRequest {
  token: string | undefined;
  target: UploadTarget;
  contentType: string | undefined;
  contentLength: number | undefined;
  /** Reads the body, refusing (with `PAYLOAD_TOO_LARGE`) once it passes `limitBytes`. */
  readBody(limitBytes: number): Promise<Buffer>;
}

/** What a successful upload answers. */
export interface UploadOutcome {
  state: 'redeemed';
  file: UploadedFileDescription;
}

const invalidGrant = () =>
  new FrameworkError('UNAUTHENTICATED', 'The upload grant is unknown, used or expired: request a new one.', {
    reason: 'credential_invalid',
  });

/**
 * Redeems an upload grant in the order the claim point requires: the route and the file are checked first (a
 * refusal there leaves the grant usable), then the token is consumed in one atomic statement (two concurrent
 * uploads: one wins), and only then is the file row written and its bytes stored. The file belongs to the grant's
 * tenant and is attributed to its minter; the produced id is written back for the grant's status readers.
 */
export class FileUploadRedemption {
  constructor(
    private readonly grants: FileUploadGrantService,
    private readonly tokens: ConsumableTokenService,
    private readonly files: FileRecordsService,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  /** Stores the uploaded file, or refuses before the grant is used (route, file) or after (lost race). */
  async redeem(request: UploadRequest): Promise<UploadOutcome> {
    const token = request.token ?? '';
    const grant = await this.tokens.inspect<FileUploadGrantMetadata>(token, CoreConsumableTokenTypes.FILE_UPLOAD_GRANT);
    const metadata = grant?.metadata;
    if (!grant || !metadata || grant.usedAt !== null || grant.expiresAt.getTime() <= this.clock.now().getTime())
      throw invalidGrant();
    const field = this.checkRoute(request.target, metadata, grant.resourceIdentifier);
    const file = await this.readFile(request, field, metadata.declared);
    const consumed = await this.tokens.consume<FileUploadGrantMetadata>(token, {
      tokenType: CoreConsumableTokenTypes.FILE_UPLOAD_GRANT,
      userId: grant.userId,
    });
    if (!consumed) throw invalidGrant();
    try {
      const stored = await this.files.storeUpload({
        tenant: metadata.tenant,
        resourceType: request.target.resourceType,
        fieldName: field.name,
        name: file.name,
        mediaType: file.mediaType,
        bytes: file.bytes,
        uploadedBy: metadata.minter,
      });
      await this.tokens.recordOutcome(token, CoreConsumableTokenTypes.FILE_UPLOAD_GRANT, {
        ...metadata,
        producedFileId: stored.id,
      });
      return { state: 'redeemed', file: describeFile(stored) };
    } catch (error) {
      this.logger.error('upload failed after its grant was used', { error: String(error) });
      await this.tokens.recordOutcome(token, CoreConsumableTokenTypes.FILE_UPLOAD_GRANT, { ...metadata, failed: true });
      throw new FrameworkError('INTERNAL', 'The file could not be stored; request a new upload grant.', {
        cause: error,
      });
    }
  }

  /** The grant must be redeemed at the exact URL it was bound to, for its resource type and field. */
  private checkRoute(target: UploadTarget, metadata: FileUploadGrantMetadata, resourceType: string | null): FileField {
    const field = this.grants.fieldOf(target.resourceType, target.route.fieldName);
    const boundUrl = this.grants.uploadUrlFor(target);
    if (
      !field ||
      resourceType !== target.resourceType ||
      metadata.fieldName !== field.name ||
      metadata.operation !== target.operation ||
      boundUrl !== metadata.uploadUrl
    ) {
      throw new FrameworkError('FORBIDDEN', 'This upload grant is for another upload URL.', {
        reason: 'credential_invalid',
      });
    }
    return field;
  }

  /**
   * Reads the multipart body's `file` part and checks its name, MIME type and size against the field, and against
   * what the grant was requested for (a grant for a 10-byte text file takes no PDF).
   */
  private async readFile(
    request: UploadRequest,
    field: FileField,
    declared: DeclaredFile | undefined,
  ): Promise<{ name: string; mediaType: string; bytes: Uint8Array }> {
    const limit = field.options.maxSizeBytes + MULTIPART_OVERHEAD_BYTES;
    if (request.contentLength !== undefined && request.contentLength > limit) throw tooLarge(field);
    if (!request.contentType || essenceOf(request.contentType) !== 'multipart/form-data') {
      throw new FrameworkError(
        'UNSUPPORTED_MEDIA_TYPE',
        'Send the file as multipart/form-data in a part named "file".',
      );
    }
    const body = await request.readBody(limit);
    let part: unknown;
    try {
      const form = await new Response(body, { headers: { 'content-type': request.contentType } }).formData();
      part = form.get('file');
    } catch {
      throw new FrameworkError('BAD_REQUEST', 'The multipart body could not be read.');
    }
    if (!isFilePart(part)) throw new FrameworkError('BAD_REQUEST', 'The multipart body has no file part named "file".');
    return this.checkedFile(part, field, declared);
  }

  private async checkedFile(
    part: FilePart,
    field: FileField,
    declared: DeclaredFile | undefined,
  ): Promise<{ name: string; mediaType: string; bytes: Uint8Array }> {
    const name = FileNameSchema.safeParse(part.name);
    if (!name.success) {
      throw new FrameworkError('VALIDATION_FAILED', 'The file name is not acceptable.', {
        reason: 'input_invalid',
        problems: [
          { path: 'file.name', expected: 'a file name without a path, control characters or direction overrides' },
        ],
      });
    }
    const mediaType = essenceOf(part.type);
    const problems = fileFactsProblems(field, { mimeType: mediaType || 'application/octet-stream', size: part.size });
    if (problems.some((problem) => problem.path === 'size')) throw tooLarge(field);
    if (problems.length > 0) {
      throw new FrameworkError(
        'UNSUPPORTED_MEDIA_TYPE',
        `This field accepts ${field.options.allowedMimeTypes.join(', ')}.`,
      );
    }
    const mismatches = declaredMismatches(declared, { name: name.data, mediaType, size: part.size });
    if (mismatches.length > 0) {
      throw new FrameworkError('VALIDATION_FAILED', 'The file is not the one this upload grant was requested for.', {
        reason: 'input_invalid',
        problems: mismatches,
      });
    }
    return { name: name.data, mediaType, bytes: new Uint8Array(await part.arrayBuffer()) };
  }
}

/** How an uploaded file differs from the facts its grant was requested with (what was not declared is not checked). */
function declaredMismatches(
  declared: DeclaredFile | undefined,
  file: { name: string; mediaType: string; size: number },
): InputProblem[] {
  if (!declared) return [];
  const problems: InputProblem[] = [];
  if (declared.name !== undefined && declared.name !== file.name)
    problems.push({ path: 'file.name', expected: 'the file name the grant was requested for' });
  if (declared.mimeType !== undefined && essenceOf(declared.mimeType) !== file.mediaType)
    problems.push({ path: 'file.type', expected: `${essenceOf(declared.mimeType)}, as the grant was requested for` });
  if (declared.size !== undefined && declared.size !== file.size)
    problems.push({ path: 'file.size', expected: `${declared.size} bytes, as the grant was requested for` });
  return problems;
}

/** A multipart file part as the platform's `FormData` gives it. */
type FilePart = Blob & { name: string };

function isFilePart(value: unknown): value is FilePart {
  return value instanceof Blob && typeof (value as { name?: unknown }).name === 'string';
}

function tooLarge(field: FileField): FrameworkError {
  return new FrameworkError(
    'PAYLOAD_TOO_LARGE',
    `This field accepts files of at most ${field.options.maxSizeBytes} bytes.`,
  );
}
