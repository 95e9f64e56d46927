import type { ConnectorExposure } from '../engine/toolchain/index.js';
import type {
  AgentToolExposure,
  ExposureField,
  ExposureReport,
  OperationExposure,
  ToolExposure,
} from '../engine/mcp/exposure-report.js';

/** Where the reported application came from, for the report's header. */
export interface ExposureSource {
  file: string;
  exportName: string;
}

const API_PREFIX = '/api/v1';
const TABLE_HEADER = ['OPERATION', 'VARIANT', 'ROLES', 'LIFECYCLE', 'MCP'];
const STATUSES = ['exposed', 'unlisted', 'blocked', 'not-exposed'] as const;
const STATUS_NAME: Record<ToolExposure['status'], string> = {
  exposed: 'exposed',
  unlisted: 'unlisted',
  blocked: 'blocked',
  'not-exposed': 'not exposed',
};
const STATUS_MEANING: Partial<Record<ToolExposure['status'], string>> = {
  unlisted: ' (experimental: callable by name, not listed)',
  blocked: ' (retired: refused by name)',
};

/**
 * The human form of an exposure report: a summary, then per resource a table of its operation variants and,
 * for each tool, what a model sends and is shown; then the tools each agent's model is offered. Plain text (no
 * colours), so it reads the same in a pipe.
 */
export function renderExposureReport(report: ExposureReport, source: ExposureSource): string {
  const lines: string[] = [];
  const tally = (entries: readonly ToolExposure[]) =>
    STATUSES.map((status) => `${entries.filter((e) => e.status === status).length} ${STATUS_NAME[status]}`).join(', ');
  lines.push(`MCP exposure of ${report.application}`);
  lines.push(`  application   ${source.exportName} in ${source.file} (engine modules included)`);
  lines.push(`  catalogues    ${report.catalogues.map((c) => `${c.name} (${API_PREFIX}${c.endpoint})`).join(', ')}`);
  lines.push(`  operations    ${report.operations.length} variants: ${tally(report.operations)}`);
  if (report.moduleTools.length > 0)
    lines.push(`  module tools  ${report.moduleTools.length}: ${tally(report.moduleTools)}`);
  if (report.agentTools.length > 0) {
    const agents = new Set(report.agentTools.map((t) => t.agent)).size;
    lines.push(
      `  agent tools   ${report.agentTools.length} across ${agents} agent${agents === 1 ? '' : 's'} (the names their models see)`,
    );
  }

  const cellsOf = (o: OperationExposure) => [
    o.operation,
    o.variant,
    o.roles.join(', ') || '-',
    o.lifecycle,
    statusLine(o),
  ];
  // One alignment for every resource's table, so they read as one.
  const widths = columnWidths([TABLE_HEADER, ...report.operations.map(cellsOf)]);
  for (const [resourceType, operations] of groupBy(report.operations, (o) => o.resourceType)) {
    lines.push('', `${resourceType} (scope ${operations[0].scope})`, `  ${alignRow(TABLE_HEADER, widths)}`);
    lines.push(...operations.map((o) => `  ${alignRow(cellsOf(o), widths)}`));
    for (const o of operations) if (o.sends) lines.push('', ...toolDetails(o));
  }

  if (report.moduleTools.length > 0) {
    lines.push('', 'Tools contributed by modules');
    lines.push(
      ...alignColumns([
        ['TOOL', 'MODULE', 'MCP'],
        ...report.moduleTools.map((t) => [t.tool, t.module, statusLine(t)]),
      ]).map((line) => `  ${line}`),
    );
    for (const t of report.moduleTools) if (t.sends) lines.push('', ...toolDetails(t));
  }
  if (report.agentTools.length > 0) lines.push('', ...agentToolLines(report.agentTools));
  lines.push('', 'A2A agents (each card lists its actor systems as skills)');
  lines.push(
    ...alignColumns([
      ['AGENT', 'ENDPOINT', 'SKILLS'],
      ...report.a2aAgents.map((a) => [a.name, `${API_PREFIX}${a.endpoint}`, a.skills.join(', ') || '-']),
    ]).map((line) => `  ${line}`),
  );
  return `${lines.join('\n')}\n`;
}

/** The tools each agent's model is offered: one row per tool, then what the model sends to each. */
function agentToolLines(tools: readonly AgentToolExposure[]): string[] {
  const lines = ['Tools offered to agents (a system access entry with requiresApproval gates every call)'];
  const rows = tools.map((t) => [t.agent, t.tool, t.functionRef, t.operation ?? '-', agentToolGate(t)]);
  lines.push(
    ...alignColumns([['AGENT', 'TOOL', 'FUNCTION REF', 'OPERATION', 'CALLS'], ...rows]).map((line) => `  ${line}`),
  );
  for (const t of tools) {
    if (t.sends) lines.push('', `  ${t.tool} (${t.agent})`, ...fieldLines('sends', t.sends, 'no arguments'));
  }
  return lines;
}

function agentToolGate(tool: AgentToolExposure): string {
  if (!tool.sends) return 'discovered at run time';
  if (tool.requiresHumanApproval) return 'after a person approves';
  return tool.readOnly ? 'at once (read-only)' : 'at once';
}

/** The width of each column: its widest cell. */
function columnWidths(rows: readonly (readonly string[])[]): number[] {
  const widths: number[] = [];
  for (const cells of rows)
    cells.forEach((cell, column) => (widths[column] = Math.max(widths[column] ?? 0, cell.length)));
  return widths;
}

/** Pads every cell but the last to its column's width, two spaces apart. */
function alignRow(cells: readonly string[], widths: readonly number[]): string {
  return cells
    .map((cell, column) => (column === cells.length - 1 ? cell : cell.padEnd(widths[column] ?? 0)))
    .join('  ');
}

/** Pads every column but the last to its widest cell, two spaces apart. */
function alignColumns(rows: readonly (readonly string[])[]): string[] {
  const widths = columnWidths(rows);
  return rows.map((cells) => alignRow(cells, widths));
}

/** `exposed on default as todos__read`, `not exposed: mcp.exposed is not set`, plus catalogues it missed. */
function statusLine(entry: ToolExposure): string {
  const exposed = entry.status !== 'not-exposed';
  const reasons = entry.reasons.map((r) =>
    r.catalogue === undefined ? r.detail : `${exposed ? 'not on ' : 'on '}${r.catalogue}: ${r.detail}`,
  );
  if (!exposed) return `${STATUS_NAME[entry.status]}: ${reasons.join('; ') || 'no reason recorded'}`;
  return [
    `${STATUS_NAME[entry.status]}${STATUS_MEANING[entry.status] ?? ''} on ${entry.catalogues.join(', ')} as ${entry.tool}`,
    ...reasons,
  ].join('; ');
}

function toolDetails(entry: ToolExposure): string[] {
  const lines = [`  ${entry.tool}`];
  lines.push(...fieldLines('sends', entry.sends ?? [], 'no arguments'));
  lines.push(
    ...fieldLines(
      'shown',
      entry.shown ?? [],
      entry.shown === null ? 'no output schema; the result is shown as text' : 'nothing',
    ),
  );
  return lines;
}

function fieldLines(label: string, fields: readonly ExposureField[], empty: string): string[] {
  if (fields.length === 0) return [`    ${label}  (${empty})`];
  return fields.map(
    (f, i) =>
      `    ${i === 0 ? label : ' '.repeat(label.length)}  ${f.path}: ${f.type}${f.required ? ' (required)' : ''}`,
  );
}

function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, [T, ...T[]]> {
  const groups = new Map<string, [T, ...T[]]>();
  for (const item of items) {
    const group = groups.get(key(item));
    if (group) group.push(item);
    else groups.set(key(item), [item]);
  }
  return groups;
}

/** The connector-bound capabilities: what each calls, what it reads, and what its backend sent that is withheld. */
export function renderConnectorExposure(connectors: readonly ConnectorExposure[]): string {
  if (connectors.length === 0) return '';
  const lines = ['', 'Connector-backed capabilities (answers pass the declared contract; the rest is withheld)'];
  lines.push(
    ...alignColumns([
      ['CAPABILITY', 'CONNECTOR', 'CALL'],
      ...connectors.map((c) => [c.capability, `${c.kind} ${c.connector}`, c.call.replace(/\s+/g, ' ').trim()]),
    ]).map((line) => `  ${line}`),
  );
  for (const c of connectors) {
    lines.push('', `  ${c.capability}`, `    reads     ${c.read.join(', ') || '(nothing)'}`);
    lines.push(
      c.observedWithheld === null
        ? '    withheld  (no recorded answer: wildo verify --record shows what the backend sends besides)'
        : `    withheld  ${c.observedWithheld.join(', ') || '(nothing observed)'}`,
    );
  }
  return `${lines.join('\n')}\n`;
}
