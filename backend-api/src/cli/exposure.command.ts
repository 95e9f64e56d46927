import { WildoConfigError } from '../engine/config/index.js';
import { toCanonicalJson } from '../engine/config/canonical-json.js';
import { DeclarationValidationError } from '../engine/resources/resources.errors.js';
import { ApplicationLoadError, loadApplication, type ApplicationLocation } from './application-loader.js';
import type { CliOutput } from './cli.output.js';
import { renderExposureReport } from './exposure.render.js';

export { APPLICATION_EXPORT, APPLICATION_MODULE_FILE, EXPOSURE_HELP } from './command-help.js';

const COMMAND = 'wildo exposure';

/** Options of `wildo exposure`. */
export interface ExposureOptions extends ApplicationLocation {
  /** Canonical JSON (sorted keys and entries) instead of the human report. */
  json: boolean;
}

/**
 * Prints what the application exposes over MCP for every declared operation (engine modules included): to
 * whom, on which catalogue or why not, what a model sends and what it is shown. Returns the exit code.
 */
export async function runExposure(options: ExposureOptions, output: CliOutput): Promise<number> {
  try {
    const loaded = await loadApplication(options);
    // Loaded on use: the engine's modules are not needed by the CLI's other commands.
    const { buildExposureReport } = await import('../engine/bootstrap/exposure-report.js');
    const report = buildExposureReport(loaded.application);
    output.out(
      options.json
        ? toCanonicalJson(report)
        : renderExposureReport(report, { file: loaded.file, exportName: loaded.exportName }),
    );
    return 0;
  } catch (error) {
    return reportFailure(error, output);
  }
}

function reportFailure(error: unknown, output: CliOutput): number {
  if (
    error instanceof ApplicationLoadError ||
    error instanceof WildoConfigError ||
    error instanceof DeclarationValidationError
  ) {
    output.err(error.message);
    return 1;
  }
  // Unexpected failures (a bug) still get one line, not a stack dump.
  output.err(`${COMMAND} failed: ${error instanceof Error ? error.message : String(error)}`);
  return 1;
}
