import { textOf } from '../api/rest.client';

/** How one field of a record is edited. */
export interface RecordFieldSpec {
  name: string;
  label: string;
  kind: 'text' | 'textarea' | 'select' | 'integer';
  /** For `select` and `integer`: the choices as `[value, label]`. */
  options?: ReadonlyArray<readonly [string, string]>;
  required?: boolean;
}

/** A LIST filter the resource declares. */
export interface RecordFilterSpec {
  name: string;
  label: string;
  /** Choices (`''` = any); a free-text filter has none. */
  options?: ReadonlyArray<readonly [string, string]>;
}

/** A resource page: where its records live, how they are listed, filtered and edited. */
export interface RecordKind {
  /** The URL segment under `/api/v1/organizations/:id/`. */
  segment: string;
  title: string;
  singular: string;
  fields: readonly RecordFieldSpec[];
  /** The filters the resource's LIST declares (the server refuses any other). */
  filters: readonly RecordFilterSpec[];
  /** The least organization role the resource's UPDATE and DELETE declare (pages offer them only from there). */
  roles: { update: string; delete: string };
  /** What a list row shows under the title. */
  summary: (record: Record<string, unknown>) => string;
}

const STATUS_OPTIONS = [
  ['todo', 'To do'],
  ['in_progress', 'In progress'],
  ['done', 'Done'],
] as const;
const PRIORITY_OPTIONS = ['1', '2', '3', '4', '5'].map((value) => [value, `Priority ${value}`] as const);

/** The todos of an organization (LIST filters: status, priority, assignee). */
export const TODOS_KIND: RecordKind = {
  segment: 'todos',
  title: 'Todos',
  singular: 'todo',
  fields: [
    { name: 'title', label: 'Title', kind: 'text', required: true },
    { name: 'description', label: 'Description', kind: 'textarea' },
    { name: 'status', label: 'Status', kind: 'select', options: STATUS_OPTIONS },
    { name: 'priority', label: 'Priority', kind: 'integer', options: PRIORITY_OPTIONS },
  ],
  filters: [
    { name: 'status', label: 'Status', options: [['', 'Any status'], ...STATUS_OPTIONS] },
    { name: 'priority', label: 'Priority', options: [['', 'Any priority'], ...PRIORITY_OPTIONS] },
    { name: 'assignee', label: 'Assignee (user id)' },
  ],
  roles: { update: 'ORG_MEMBER', delete: 'ORG_MANAGER' },
  summary: (record) =>
    `${STATUS_OPTIONS.find(([value]) => value === record.status)?.[1] ?? textOf(record.status)} · priority ${textOf(record.priority)}`,
};

/** The knowledge documents of an organization (its LIST declares no filter). */
export const DOCUMENTS_KIND: RecordKind = {
  segment: 'knowledge-documents',
  title: 'Knowledge documents',
  singular: 'document',
  fields: [
    { name: 'title', label: 'Title', kind: 'text', required: true },
    { name: 'body', label: 'Body', kind: 'textarea' },
  ],
  filters: [],
  roles: { update: 'ORG_MANAGER', delete: 'ORG_MANAGER' },
  summary: (record) => {
    const body = typeof record.body === 'string' ? record.body : '';
    return body.length > 80 ? `${body.slice(0, 80)}…` : body || 'No body';
  },
};
