import {
  fileFieldRegistry,
  ragSourceRegistry,
  type FileFieldOptions,
  type ResolvedRagSourceOptions,
} from '@wildo/shared-lib';
import { quoteIdentifier, resourceTableNames, type TenantScope } from '../../persistence/index.js';
import type { CompiledResource } from '../../resources/index.js';
import { defOf, shapeOf, unwrapTransparent } from '../../resources/schema/index.js';

/** One corpus field: text chunked as is, or a file field whose extracted text is chunked. */
export type CorpusField =
  | { name: string; kind: 'text'; options: ResolvedRagSourceOptions }
  | { name: string; kind: 'file'; options: ResolvedRagSourceOptions; file: FileFieldOptions };

/** A resource type whose schema marks fields with `.ragSource()` or `z_file({ ragSource })`. */
export interface CorpusDefinition {
  resourceType: string;
  displayName: string;
  scope: TenantScope['kind'];
  /** The quoted resource table (reconciliation reads records from it). */
  table: string;
  fields: readonly CorpusField[];
  /** The text field whose value titles each passage (`title` or `name` when declared, else the first text source). */
  headerField?: string;
}

/** The corpus fields of a schema, in declaration order. */
export function corpusFieldsOf(resource: Pick<CompiledResource, 'schema'>): CorpusField[] {
  const fields: CorpusField[] = [];
  for (const [name, field] of Object.entries(shapeOf(resource.schema))) {
    const inner = unwrapTransparent(field);
    const options = ragSourceRegistry.get(inner);
    if (!options) continue;
    const file = fileFieldRegistry.get(inner);
    if (file) fields.push({ name, kind: 'file', options, file });
    else if (defOf(inner).type === 'string') fields.push({ name, kind: 'text', options });
  }
  return fields;
}

function headerFieldOf(resource: CompiledResource, fields: readonly CorpusField[]): string | undefined {
  const shape = shapeOf(resource.schema);
  const named = ['title', 'name'].find(
    (name) => name in shape && defOf(unwrapTransparent(shape[name] as never)).type === 'string',
  );
  return named ?? fields.find((field) => field.kind === 'text')?.name;
}

/** Every corpus of an application, by resource type. */
export function corpusDefinitionsOf(resources: readonly CompiledResource[]): Map<string, CorpusDefinition> {
  const corpora = new Map<string, CorpusDefinition>();
  for (const resource of resources) {
    const fields = corpusFieldsOf(resource);
    if (fields.length === 0) continue;
    const headerField = headerFieldOf(resource, fields);
    corpora.set(resource.type, {
      resourceType: resource.type,
      displayName: resource.declaration.displayName,
      scope: resource.storeDefinition.scope,
      table: quoteIdentifier(resourceTableNames(resource.type).table),
      fields,
      ...(headerField ? { headerField } : {}),
    });
  }
  return corpora;
}
