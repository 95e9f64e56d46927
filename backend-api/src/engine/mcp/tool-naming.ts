/** The tool-name grammar clients accept: 1 to 128 of letters, digits, `_`, `-`, `.`. */
export const TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

/** `<resource>__<operation>`, the name of a resource operation's tool. */
export function toolNameOf(resourceType: string, operation: string): string {
  return `${resourceType}__${operation}`;
}

/** The argument naming a record: `todoId` for `todo`, `knowledgeDocumentId` for `knowledge-document`. */
export function idArgumentOf(singular: string): string {
  const camel = singular.replace(/[-_]+([a-z0-9])/g, (_m, c: string) => c.toUpperCase());
  return `${camel}Id`;
}
