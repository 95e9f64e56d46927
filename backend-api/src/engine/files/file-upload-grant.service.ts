import {
  ConsumableToken_ConsumptionMode,
  CoreConsumableTokenTypes,
  CoreResourceOperation,
  DurationUnit,
} from '@wildo/shared-lib';
import type { Clock } from '../container/index.js';
import { FrameworkError, type InputProblem } from '../errors/index.js';
import type {
  AuthenticatedPrincipal,
  ConsumableTokenService,
  InspectedToken,
  RoleHierarchyResolver,
} from '../identity/index.js';
import type { ResourceStore } from '../persistence/index.js';
import type { PublicUrls } from '../public-urls/index.js';
import {
  scopeFor,
  type CompiledOperation,
  type CompiledResource,
  type DispatchSurface,
  type ExecutionContext,
  type ExecutionContextCreator,
  type OperationAdmission,
  type ResourcesRegistry,
} from '../resources/index.js';
import { fileFieldsOf, isUserUploadable, type FileField } from './file-fields.js';
import type { FileRecord, FileRecordsService } from './file-records.service.js';
import {
  FILE_UPLOAD_GRANT_DEFAULT_MINUTES,
  UPLOAD_GRANT_HEADER,
  type DeclaredFile,
  type FileUploadGrantMetadata,
  type UploadedFileDescription,
  type UploadFieldDescription,
  type UploadGrantOperation,
  type UploadGrantResponse,
  type UploadGrantStatus,
} from './file-upload-grant.schema.js';
import {
  requireConfiguredUrls,
  statusUrlOf,
  uploadCommandsOf,
  uploadPageUrlOf,
  uploadUrlOf,
  type UploadRoute,
} from './upload-grant-urls.js';

/** One mint request, from REST or from the derived MCP tool. */
export interface MintUploadGrantRequest {
  principal: AuthenticatedPrincipal | null;
  /** The request itself presented a consumable token (an upload grant): such callers cannot mint another. */
  presentedConsumableToken: boolean;
  surface: DispatchSurface;
  requestId: string;
  resourceType: string;
  operation: UploadGrantOperation;
  route: UploadRoute;
  declared: DeclaredFile;
  expiresInMinutes?: number;
}

/** A grant's target as the upload route names it. */
export interface UploadTarget {
  resourceType: string;
  operation: UploadGrantOperation;
  route: UploadRoute;
}

/** The collaborators of the {@link FileUploadGrantService}. */
export interface FileUploadGrantDependencies {
  registry: ResourcesRegistry;
  contexts: Pick<ExecutionContextCreator, 'buildContext'>;
  admission: Pick<OperationAdmission, 'checkLifecycle' | 'authorize'>;
  roles: Pick<RoleHierarchyResolver, 'satisfies'>;
  store: Pick<ResourceStore, 'findById'>;
  tokens: ConsumableTokenService;
  files: FileRecordsService;
  /** The backend's public URLs; absent when none is configured (minting is then refused). */
  urls: PublicUrls | undefined;
  clock: Clock;
}

const CORE_OF: Record<UploadGrantOperation, CoreResourceOperation> = {
  create: CoreResourceOperation.CREATE,
  update: CoreResourceOperation.UPDATE,
};

/** The field's constraint as clients see it. */
export function describeField(field: FileField): UploadFieldDescription {
  return {
    name: field.name,
    allowedMimeTypes: field.options.allowedMimeTypes,
    maxSizeBytes: field.options.maxSizeBytes,
    multiple: field.options.multiple,
  };
}

/** A file's public description. */
export function describeFile(file: FileRecord): UploadedFileDescription {
  return { fileId: file.id, name: file.name, mediaType: file.mediaType, size: file.sizeBytes, sha256: file.sha256 };
}

/** `text/plain; charset=utf-8` → `text/plain`. */
export function essenceOf(mediaType: string): string {
  return (mediaType.split(';')[0] ?? '').trim().toLowerCase();
}

/** The problems of a file's facts against its field (name, MIME type, size); empty when it fits. */
export function fileFactsProblems(field: FileField, facts: DeclaredFile): InputProblem[] {
  const problems: InputProblem[] = [];
  const allowed = field.options.allowedMimeTypes.map(essenceOf);
  if (facts.mimeType !== undefined && !allowed.includes(essenceOf(facts.mimeType)))
    problems.push({ path: 'mimeType', expected: `one of ${field.options.allowedMimeTypes.join(', ')}` });
  if (facts.size !== undefined && facts.size > field.options.maxSizeBytes)
    problems.push({ path: 'size', expected: `at most ${field.options.maxSizeBytes} bytes` });
  return problems;
}

/**
 * Upload grants: a single-use consumable token (`FILE_UPLOAD_GRANT`) bound to resource type, field, operation, target
 * row (update), minter and the concrete upload URL. Minting applies the parent operation's own gating (lifecycle,
 * roles, the addressed record) and checks the declared file against the field; the upload, status and drop page URLs
 * come from the backend's public URLs (the same the token issuer and the agent cards use), never from the request.
 *
 * @example
 * const grant = await grants.mint({ principal, presentedConsumableToken: false, surface: 'rest', requestId,
 *   resourceType: 'knowledge-documents', operation: 'update', route: { organizationId, recordId, fieldName: 'document' },
 *   declared: { name: 'guide.pdf', mimeType: 'application/pdf', size: 48_213 } });
 */
export class FileUploadGrantService {
  /** User-uploadable `z_file` fields by resource type (resources without one are absent). */
  readonly uploadableFields: ReadonlyMap<string, readonly FileField[]>;

  constructor(private readonly deps: FileUploadGrantDependencies) {
    const fields = new Map<string, readonly FileField[]>();
    for (const resource of deps.registry.listResources()) {
      const uploadable = fileFieldsOf(resource.schema).filter(isUserUploadable);
      if (uploadable.length > 0) fields.set(resource.type, uploadable);
    }
    this.uploadableFields = fields;
  }

  /** Mints a grant, or refuses (anonymous and consumable-token callers, gating, field facts, missing public URL). */
  async mint(request: MintUploadGrantRequest): Promise<UploadGrantResponse> {
    const principal = this.requireMinter(request);
    const { resource, operation, field } = this.targetOf(request);
    this.deps.admission.checkLifecycle(operation);
    const context = await this.deps.contexts.buildContext(
      principal,
      operation,
      request.route.organizationId ? { organizationId: request.route.organizationId } : {},
      { surface: request.surface, requestId: request.requestId },
    );
    this.deps.admission.authorize(operation, context);
    if (request.operation === 'update') await this.requireRecord(resource, operation, context, request.route);
    const problems = fileFactsProblems(field, request.declared);
    if (problems.length > 0) {
      throw new FrameworkError('VALIDATION_FAILED', 'This file cannot be uploaded to this field.', {
        reason: 'input_invalid',
        problems,
      });
    }
    const urls = requireConfiguredUrls(this.deps.urls);
    return this.issue(request, operation, field, context, principal, urls);
  }

  /** The status of a grant named by its handle (from its status URL). */
  async status(handle: string): Promise<UploadGrantStatus> {
    const token = await this.deps.tokens.inspectByHandle<FileUploadGrantMetadata>(
      handle,
      CoreConsumableTokenTypes.FILE_UPLOAD_GRANT,
    );
    const metadata = token?.metadata;
    if (!token || !metadata) throw new FrameworkError('NOT_FOUND', 'No upload grant answers at this URL.');
    const resourceType = token.resourceIdentifier ?? '';
    const field = this.fieldOf(resourceType, metadata.fieldName);
    const file = metadata.producedFileId
      ? await this.deps.files.get(metadata.producedFileId, metadata.tenant)
      : undefined;
    return {
      state: this.stateOf(token, metadata),
      expiresAt: token.expiresAt.toISOString(),
      resourceType,
      operation: metadata.operation,
      field: field
        ? describeField(field)
        : { name: metadata.fieldName, allowedMimeTypes: [], maxSizeBytes: 0, multiple: false },
      uploadUrl: metadata.uploadUrl,
      ...(file ? { file: describeFile(file) } : {}),
    };
  }

  /** The user-uploadable `z_file` field of a resource, or undefined. */
  fieldOf(resourceType: string, fieldName: string): FileField | undefined {
    return this.uploadableFields.get(resourceType)?.find((field) => field.name === fieldName);
  }

  /** The parent operation of a grant (create or update), when it is served over HTTP. */
  operationOf(resourceType: string, operation: UploadGrantOperation): CompiledOperation | undefined {
    const path = this.deps.registry.getServiceOperationPathDefault(resourceType, CORE_OF[operation]);
    const compiled = this.deps.registry.findOperation(path);
    return compiled?.http && !compiled.unimplemented ? compiled : undefined;
  }

  /** The drop page's origin (the pages' public URL, when a frontend is declared), which may call the upload routes. */
  frontendOrigin(): string | undefined {
    return this.deps.urls?.pagesOrigin();
  }

  /** The upload URL a target's route has (what a grant for it was bound to). */
  uploadUrlFor(target: UploadTarget): string | undefined {
    const operation = this.operationOf(target.resourceType, target.operation);
    return operation ? uploadUrlOf(requireConfiguredUrls(this.deps.urls), operation, target.route) : undefined;
  }

  private stateOf(token: InspectedToken, metadata: FileUploadGrantMetadata): UploadGrantStatus['state'] {
    if (token.usedAt === null)
      return token.expiresAt.getTime() <= this.deps.clock.now().getTime() ? 'expired' : 'pending';
    return metadata.producedFileId ? 'redeemed' : 'failed';
  }

  private requireMinter(request: MintUploadGrantRequest): AuthenticatedPrincipal {
    if (request.presentedConsumableToken) {
      throw new FrameworkError('FORBIDDEN', 'An upload grant cannot be used to mint another one.', {
        reason: 'principal_not_allowed',
      });
    }
    if (!request.principal)
      throw new FrameworkError('UNAUTHENTICATED', 'Authentication is required.', { reason: 'no_credential' });
    return request.principal;
  }

  private targetOf(request: MintUploadGrantRequest): {
    resource: CompiledResource;
    operation: CompiledOperation;
    field: FileField;
  } {
    const field = this.fieldOf(request.resourceType, request.route.fieldName);
    const operation = this.operationOf(request.resourceType, request.operation);
    if (!field || !operation)
      throw new FrameworkError('NOT_FOUND', 'This resource has no file field of this name that accepts uploads.');
    return { resource: this.deps.registry.getResource(request.resourceType), operation, field };
  }

  /** An update grant names a record the caller could update: absent, another tenant's or not theirs answer not found. */
  private async requireRecord(
    resource: CompiledResource,
    operation: CompiledOperation,
    context: ExecutionContext,
    route: UploadRoute,
  ): Promise<void> {
    const ownerOnly =
      operation.ownerOnly && !this.deps.roles.satisfies(context.initiatorRoles, operation.ownerOnly.exemptRoles)
        ? { createdByUserId: context.initiatorIds.userId ?? '' }
        : undefined;
    const record = await this.deps.store.findById(
      resource.storeDefinition,
      scopeFor(resource, context),
      route.recordId ?? '',
      ownerOnly,
    );
    if (!record) throw new FrameworkError('NOT_FOUND', `No ${resource.singular.replace(/-/g, ' ')} with this id.`);
  }

  private async issue(
    request: MintUploadGrantRequest,
    operation: CompiledOperation,
    field: FileField,
    context: ExecutionContext,
    principal: AuthenticatedPrincipal,
    urls: PublicUrls,
  ): Promise<UploadGrantResponse> {
    const expiresInMinutes = request.expiresInMinutes ?? FILE_UPLOAD_GRANT_DEFAULT_MINUTES;
    const uploadUrl = uploadUrlOf(urls, operation, request.route);
    const resource = this.deps.registry.getResource(request.resourceType);
    const metadata: FileUploadGrantMetadata = {
      fieldName: field.name,
      operation: request.operation,
      minter:
        principal.kind === 'user'
          ? { entityType: 'user', id: principal.userId }
          : { entityType: 'machine', id: principal.clientId },
      uploadUrl,
      tenant: scopeFor(resource, context),
      ...(Object.keys(request.declared).length > 0 ? { declared: request.declared } : {}),
    };
    const issued = await this.deps.tokens.createToken<FileUploadGrantMetadata>({
      tokenType: CoreConsumableTokenTypes.FILE_UPLOAD_GRANT,
      consumptionMode: ConsumableToken_ConsumptionMode.SINGLE_USE,
      expiresIn: { value: expiresInMinutes, unit: DurationUnit.MINUTES },
      ...(context.initiatorIds.userId ? { userId: context.initiatorIds.userId } : {}),
      ...(context.initiatorIds.organizationId ? { organizationId: context.initiatorIds.organizationId } : {}),
      resourceIdentifier: request.resourceType,
      ...(request.operation === 'update' && request.route.recordId ? { relatedId: request.route.recordId } : {}),
      roles: [...context.initiatorRoles],
      metadata,
    });
    const statusUrl = statusUrlOf(urls, this.deps.tokens.handleOf(issued.token));
    const commands = uploadCommandsOf(uploadUrl, issued.token, request.declared);
    return {
      resourceType: request.resourceType,
      operation: request.operation,
      field: describeField(field),
      uploadUrl,
      uploadHeader: { name: UPLOAD_GRANT_HEADER, value: issued.token },
      uploadCommand: commands.curl,
      uploadCommands: commands,
      statusUrl,
      ...(urls.pagesDeclared ? { uploadPageUrl: uploadPageUrlOf(urls, issued.token, statusUrl) } : {}),
      expiresAt: issued.expiresAt.toISOString(),
      expiresInMinutes,
    };
  }
}
