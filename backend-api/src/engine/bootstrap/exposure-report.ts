import { createSilentLogger } from '../logging/index.js';
import { describeExposure, McpToolCatalogue, UploadGrantMcpTools, type ExposureReport } from '../mcp/index.js';
import { ResourcesRegistry } from '../resources/index.js';
import type { BackendApplicationDefinition } from './backend-domain-module.js';
import { withEngineModules } from './engine-modules.js';

/**
 * Builds the exposure report of an application as the engine would run it: the engine's modules are added,
 * the declarations compiled and validated (throws `DeclarationValidationError`), and the runtime's own
 * {@link McpToolCatalogue} decides; the report only reads its catalogues and recorded omissions.
 *
 * @example
 * const report = buildExposureReport(referenceApplication);
 * report.operations.filter((o) => o.status === 'exposed').map((o) => o.tool);
 */
export function buildExposureReport(application: BackendApplicationDefinition): ExposureReport {
  const full = withEngineModules(application);
  const registry = ResourcesRegistry.fromApplication(full);
  // The derived upload-grant tools are listed as the runtime lists them, from the declarations alone: a report
  // holds no grant service (nor any database) and never calls them.
  const uploadGrantTools = new UploadGrantMcpTools();
  return describeExposure(registry, full, new McpToolCatalogue(registry, full, createSilentLogger(), uploadGrantTools));
}
