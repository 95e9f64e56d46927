import { CoreResourceOperation } from '@wildo/shared-lib';
import { FrameworkError, type InputProblem } from '../errors/index.js';
import type { SqlExecutor, TenantScope } from '../persistence/index.js';
import { scopeFor, type CompiledOperation, type ExecutionContext, type ResourcesRegistry } from '../resources/index.js';
import { fileFieldsOf, fileIdsIn, type FileField } from './file-fields.js';
import type { FileRecordsService } from './file-records.service.js';

/**
 * The rule of `z_file` values: a write that sets a file field may only name files the record's tenant uploaded for
 * that resource type and field (and that are stored). Another tenant's file, one uploaded for another field, or an
 * invented id are refused alike (`VALIDATION_FAILED`, the field's path, never the id). Every record write reaches it
 * through the store ({@link FileReferencingStore}); the dispatch path also asks it early, before prefix handlers.
 */
export class FileReferenceCheck {
  private readonly fieldsByType = new Map<string, readonly FileField[]>();

  constructor(
    private readonly registry: Pick<ResourcesRegistry, 'getResource' | 'listResources'>,
    private readonly files: Pick<FileRecordsService, 'usableIds'>,
  ) {}

  /** The dispatch path's `files` step: nothing to await (undefined) unless a CREATE or UPDATE body names files. */
  check(operation: CompiledOperation, context: ExecutionContext, body: unknown): Promise<void> | undefined {
    if (operation.core !== CoreResourceOperation.CREATE && operation.core !== CoreResourceOperation.UPDATE) return;
    if (body === null || typeof body !== 'object') return;
    const resource = this.registry.getResource(operation.resourceType);
    return this.checkWrite(resource.type, scopeFor(resource, context), body as Record<string, unknown>);
  }

  /** Whether any resource declares a `z_file` field (without one, no record write needs looking at). */
  declaresFileFields(): boolean {
    return this.registry.listResources().some((resource) => this.fieldsOf(resource.type).length > 0);
  }

  /** Whether `data` names any file in a file field of the type (a write naming none is not looked at). */
  namesFiles(resourceType: string, data: Record<string, unknown>): boolean {
    return this.fieldsOf(resourceType).some((field) => fileIdsIn(data[field.name]).length > 0);
  }

  /**
   * Refuses the file ids `data` names that are not usable by `tenant` for their field. Ids the field already held
   * in `previous` (the record before an update) were checked when they were written and are not asked again.
   * Nothing to await (undefined) when `data` names no new file.
   */
  checkWrite(
    resourceType: string,
    tenant: TenantScope,
    data: Record<string, unknown>,
    previous?: Record<string, unknown>,
    executor?: SqlExecutor,
  ): Promise<void> | undefined {
    const named = this.fieldsOf(resourceType)
      .map((field) => {
        const held = new Set(previous ? fileIdsIn(previous[field.name]) : []);
        return { field: field.name, ids: fileIdsIn(data[field.name]).filter((id) => !held.has(id)) };
      })
      .filter((entry) => entry.ids.length > 0);
    if (named.length === 0) return;
    return this.refuseUnusable(resourceType, tenant, named, executor);
  }

  private async refuseUnusable(
    resourceType: string,
    tenant: TenantScope,
    named: readonly { field: string; ids: readonly string[] }[],
    executor: SqlExecutor | undefined,
  ): Promise<void> {
    const problems: InputProblem[] = [];
    for (const { field, ids } of named) {
      const usable = await this.files.usableIds(ids, tenant, resourceType, field, executor);
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
      const resource = this.registry.listResources().find((candidate) => candidate.type === resourceType);
      fields = resource ? fileFieldsOf(resource.schema) : [];
      this.fieldsByType.set(resourceType, fields);
    }
    return fields;
  }
}
