import { buildExposureReport, type BackendApplicationDefinition } from '../bootstrap/index.js';
import { declaredBindings } from '../connectors/index.js';
import type { ExposureReport } from '../mcp/index.js';
import type { ContractFile } from './contracts.js';

// What a connector-bound capability reaches, and what its backend answers that nobody declared: the paths a
// recorded contract observed in the answer and the binding never reads (withheld from every caller, every surface).

/** One connector-bound capability in the exposure report. */
export interface ConnectorExposure {
  /** `hotels.find`. */
  capability: string;
  kind: 'rest' | 'sql';
  connector: string;
  /** `POST /v1/stays/search`, or the SELECT statement. */
  call: string;
  /** The answer's paths the binding reads (`stays[].name`). */
  read: string[];
  /** Paths a recorded answer held that the binding does not read; null when no contract was recorded. */
  observedWithheld: string[] | null;
  origin?: string;
}

/** The MCP exposure report, with the connector-bound capabilities beside it. */
export interface ApplicationExposureReport extends ExposureReport {
  connectors: ConnectorExposure[];
}

/** `$.stays[*]` -> `stays[]`; `$.a.b` -> `a.b`; anything beyond dots and `[*]` is kept as written. */
function answerPath(jsonPath: string): string {
  return jsonPath.replace(/^\$\.?/, '').replace(/\[\*\]/g, '[]');
}

function join(prefix: string, path: string): string {
  return prefix && path ? `${prefix}.${path}` : prefix || path;
}

/**
 * The exposure report of an application with its connector-bound capabilities; with recorded `contracts`, each
 * one's observed-but-withheld paths (never values: the contract holds paths and types only).
 */
export function buildApplicationExposure(
  application: BackendApplicationDefinition,
  contracts?: ContractFile,
): ApplicationExposureReport {
  const report = buildExposureReport(application);
  const connectors = declaredBindings(application).map((declared): ConnectorExposure => {
    const { binding } = declared;
    const response = binding.response as {
      collection?: string;
      map: Record<string, unknown>;
      extract?: Record<string, unknown>;
    };
    const prefix = response.collection ? answerPath(response.collection) : '';
    const read = [
      ...Object.values(response.map).flatMap((p) => (typeof p === 'string' ? [join(prefix, answerPath(p))] : [])),
      ...Object.values(response.extract ?? {}).flatMap((p) => (typeof p === 'string' ? [answerPath(p)] : [])),
    ].sort();
    const id = `${declared.resourceType}.${declared.operation}`;
    // A manifest capability is recorded under its own id (`wanderlust.search`, operation `search-capability`).
    const entry = contracts?.capabilities[id] ?? contracts?.capabilities[id.replace(/-capability$/, '')];
    const recorded = entry?.answer;
    const related = (a: string, b: string) => a === b || a.startsWith(`${b}.`) || a.startsWith(`${b}[]`);
    // Read: a path the binding reads, what lies below it, the containers above it, and the collection itself.
    const isRead = (path: string) => path === prefix || read.some((r) => related(path, r) || related(r, path));
    return {
      capability: id,
      kind: binding.connector.kind,
      connector: binding.connector.name,
      call: 'sql' in binding ? binding.sql : `${binding.method} ${binding.path}`,
      read,
      observedWithheld: recorded ? recorded.map((f) => f.path).filter((p) => !isRead(p)) : null,
      ...(declared.origin ? { origin: declared.origin } : {}),
    };
  });
  connectors.sort((a, b) => a.capability.localeCompare(b.capability));
  return { ...report, connectors };
}
