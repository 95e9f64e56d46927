import { DOCUMENTS_KIND, TODOS_KIND } from '../records/record-kinds';

const KINDS = [TODOS_KIND, DOCUMENTS_KIND];
const VERBS: Record<string, string> = {
  create: 'Create',
  read: 'Read',
  update: 'Update',
  delete: 'Delete',
  list: 'List',
  search: 'Search',
  complete: 'Complete',
  stats: 'Count',
  ask: 'Ask',
};

/**
 * An operation as people name it (`resource.todos.update` → `Update todo`): the verb and the resource's singular
 * name, never the function ref.
 */
export function operationDisplayName(functionRef: string): string {
  const match = /^(?:resource[._])?([a-z0-9-]+)[._]([a-z0-9_-]+)$/i.exec(functionRef);
  if (!match) return humanize(functionRef.split(/[._]/).at(-1) ?? functionRef);
  const [, resource = '', operation = ''] = match;
  const kind = KINDS.find((item) => item.segment === resource || item.segment.replace(/-/g, '_') === resource);
  const noun = kind
    ? ['list', 'search', 'stats'].includes(operation)
      ? kind.title.toLowerCase()
      : kind.singular
    : humanize(resource).toLowerCase();
  return `${VERBS[operation] ?? humanize(operation)} ${noun}`;
}

function humanize(word: string): string {
  const text = word.replace(/[-_]+/g, ' ').trim();
  return text.charAt(0).toUpperCase() + text.slice(1);
}
