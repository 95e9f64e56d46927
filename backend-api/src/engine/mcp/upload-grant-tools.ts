import { CoreResourceOperation, ResourcePrimaryScope } from '@wildo/shared-lib';
import { z } from 'zod';
import { FrameworkError } from '../errors/index.js';
import type { PrincipalDirectory } from '../identity/index.js';
import { callOrganization, organizationIdArgument, toolInputInvalid } from './call-organization.js';
import { successResult } from './mcp-results.js';
import type { McpCustomTool } from './mcp-tools.types.js';
import type { DerivedMcpTools } from './tool-catalogue.service.js';
import { idArgumentOf, TOOL_NAME, toolNameOf } from './tool-naming.js';
import type { CompiledOperation, CompiledResource } from '../resources/index.js';
import {
  DeclaredFileSchema,
  FILE_UPLOAD_GRANT_MAX_MINUTES,
  fileFieldsOf,
  isUserUploadable,
  MintUploadGrantBodySchema,
  type FileField,
  type FileUploadGrantService,
} from '../files/index.js';

/** What minting through an upload-grant tool needs: the grant service and the directory that resolves organizations. */
export interface UploadGrantMinting {
  grants: Pick<FileUploadGrantService, 'mint'>;
  directory: PrincipalDirectory;
}

/** `<resource>__<operation>.upload_grant.<field>`: the derived tool that mints an upload grant for one file field. */
export function uploadGrantToolName(resourceType: string, operation: string, field: string): string {
  return `${toolNameOf(resourceType, operation)}.upload_grant.${field}`;
}

/**
 * Derives, for each exposed CREATE or UPDATE tool with user-uploadable `z_file` fields, one upload-grant tool per
 * field (on the same MCP servers) and the sentence its parent's description gains to explain the handoff. The tool
 * mints through the same {@link FileUploadGrantService} as the REST door, with the same gating.
 */
export class UploadGrantMcpTools {
  /**
   * `services` is read at call time: the catalogue is compiled before the container that holds them is loaded.
   * Without it (the exposure report) the tools are derived from the declarations alone and a call is refused.
   */
  constructor(private readonly services?: () => UploadGrantMinting) {}

  /** The derived tools of one parent tool and the note for its description (nothing for other operations). */
  toolsFor(resource: CompiledResource, operation: CompiledOperation): DerivedMcpTools | undefined {
    const kind =
      operation.core === CoreResourceOperation.CREATE
        ? 'create'
        : operation.core === CoreResourceOperation.UPDATE
          ? 'update'
          : undefined;
    if (!kind) return undefined;
    const fields = fileFieldsOf(resource.schema).filter(isUserUploadable);
    const tools = fields
      .map((field) => this.toolFor(resource, operation, kind, field))
      .filter((tool) => TOOL_NAME.test(tool.descriptor.name));
    if (tools.length === 0) return undefined;
    const handoff = tools.map((tool) => `"${tool.descriptor.name}"`).join(', ');
    return {
      tools,
      descriptionNote:
        `File fields (${fields.map((f) => f.name).join(', ')}) take the id of an uploaded file, never an invented one: ` +
        `call ${handoff} for a single-use upload grant, have the file uploaded with its uploadCommand (or give a person ` +
        `its uploadPageUrl), read its statusUrl until state is "redeemed", then pass { fileId, updatedAt } ` +
        `({ fileIds, updatedAt } for a multiple field) here.`,
    };
  }

  private toolFor(
    resource: CompiledResource,
    operation: CompiledOperation,
    kind: 'create' | 'update',
    field: FileField,
  ): McpCustomTool {
    const organizationScoped = resource.scope === ResourcePrimaryScope.ORGANIZATIONS;
    const idArgument = kind === 'update' ? idArgumentOf(resource.singular) : undefined;
    const addressing: Record<string, z.ZodType> = {};
    if (idArgument) addressing[idArgument] = z.string().min(1).max(64).describe('Id of the record the file is for.');
    if (organizationScoped) addressing.organizationId = organizationIdArgument();
    const shape = {
      ...addressing,
      ...DeclaredFileSchema.shape,
      expiresInMinutes: z.number().int().min(1).max(FILE_UPLOAD_GRANT_MAX_MINUTES).optional(),
    };
    const accepts = `${field.options.allowedMimeTypes.join(', ')}; at most ${field.options.maxSizeBytes} bytes`;
    return {
      descriptor: {
        name: uploadGrantToolName(resource.type, operation.operation, field.name),
        title: `${resource.declaration.displayName}: upload grant for ${field.name}`,
        description:
          `Mints a single-use grant to upload one file to the "${field.name}" field for ${operation.operation} ` +
          `(${accepts}). Declare name, mimeType and size to have an impossible file refused now. The answer gives ` +
          `uploadUrl, uploadHeader, uploadCommand, statusUrl and, with a web frontend, uploadPageUrl; treat them as secrets.`,
        inputSchema: z.toJSONSchema(z.strictObject(shape), { io: 'input' }) as Record<string, unknown>,
        annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
      },
      call: async (args, context) => {
        const { [idArgument ?? '']: recordId, organizationId, ...rest } = args;
        if (idArgument && (typeof recordId !== 'string' || recordId === ''))
          throw toolInputInvalid(idArgument, 'required');
        const parsed = MintUploadGrantBodySchema.safeParse(rest);
        if (!parsed.success)
          throw toolInputInvalid(String(parsed.error.issues[0]?.path[0] ?? '(root)'), 'a valid value');
        const { expiresInMinutes, ...declared } = parsed.data;
        const services = this.minting();
        const grant = await services.grants.mint({
          principal: context.principal,
          presentedConsumableToken: false,
          surface: 'mcp',
          requestId: context.requestId,
          resourceType: resource.type,
          operation: kind,
          route: {
            fieldName: field.name,
            ...(organizationScoped
              ? { organizationId: await callOrganization(services.directory, context.principal, organizationId) }
              : {}),
            ...(idArgument ? { recordId: recordId as string } : {}),
          },
          declared,
          ...(expiresInMinutes === undefined ? {} : { expiresInMinutes }),
        });
        return successResult(grant, []);
      },
    };
  }

  private minting(): UploadGrantMinting {
    if (!this.services) throw new FrameworkError('NOT_IMPLEMENTED', 'Upload grants are not served here.');
    return this.services();
  }
}
