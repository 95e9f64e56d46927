import { CoreResourceOperation } from '@wildo/shared-lib';
import { FrameworkError, type InputProblem } from '../errors/index.js';
import type { CompiledOperation } from '../resources/compiled-resource.types.js';
import type { ExecutionContext } from '../resources/execution-context.js';
import type { ResourcesRegistry } from '../resources/resources-registry.service.js';
import { fileFieldsOf, fileIdsIn, type FileField } from './file-fields.js';
import type { FileRecordsService } from './file-records.service.js';

/**
 * The dispatch path's `files` step: a CREATE or UPDATE that sets a `z_file` field may only name files its caller's
 * tenant uploaded for that resource type and field (and that are stored). Another tenant's file, one uploaded for
 * another field, or an invented id are refused alike, before the service pipeline runs, without saying which.
 */
export class FileReferenceCheck {
  private readonly fieldsByType = new Map<string, readonly FileField[]>();

  constructor(
    private readonly registry: Pick<ResourcesRegistry, 'getResource'>,
    private readonly files: Pick<FileRecordsService, 'usableIds'>,
  ) {}

  /** Nothing to await (undefined) unless the body names files; rejects with `VALIDATION_FAILED` otherwise. */
  check(operation: CompiledOperation, context: ExecutionContext, body: unknown): Promise<void> | undefined {
    if (operation.core !== CoreResourceOperation.CREATE && operation.core !== CoreResourceOperation.UPDATE) return;
    if (body === null || typeof body !== 'object') return;
    const named = this.fieldsOf(operation.resourceType)
      .map((field) => ({ field: field.name, ids: fileIdsIn((body as Record<string, unknown>)[field.name]) }))
      .filter((entry) => entry.ids.length > 0);
    if (named.length === 0) return;
    return this.refuseUnusable(operation.resourceType, context, named);
  }

  private async refuseUnusable(
    resourceType: string,
    context: ExecutionContext,
    named: readonly { field: string; ids: readonly string[] }[],
  ): Promise<void> {
    const problems: InputProblem[] = [];
    for (const { field, ids } of named) {
      const usable = await this.files.usableIds(ids, context.tenant, resourceType, field);
      if (ids.some((id) => !usable.has(id))) {
        problems.push({ path: field, expected: 'ids of files uploaded to this field (request an upload grant)' });
      }
    }
    if (problems.length > 0) {
      throw new FrameworkError('VALIDATION_FAILED', 'A file reference does not name a file uploaded to its field.', {
        reason: 'input_invalid',
        problems,
      });
    }
  }

  private fieldsOf(resourceType: string): readonly FileField[] {
    let fields = this.fieldsByType.get(resourceType);
    if (!fields) {
      fields = fileFieldsOf(this.registry.getResource(resourceType).schema);
      this.fieldsByType.set(resourceType, fields);
    }
    return fields;
  }
}
