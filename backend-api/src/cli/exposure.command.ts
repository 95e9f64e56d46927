import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { WildoConfigError } from '../engine/config/index.js';
import type { ContractFile } from '../engine/toolchain/index.js';
import { resolveProjectRoot } from './project-root.js';
import { toCanonicalJson } from '../engine/config/canonical-json.js';
import { DeclarationValidationError } from '../engine/resources/resources.errors.js';
import { ApplicationLoadError, loadApplication, type ApplicationLocation } from './application-loader.js';
import type { CliOutput } from './cli.output.js';

/** The contract file `wildo verify --record` writes beside the declaration. */
const CONTRACT_FILE = 'wildo.contract.json';
import { renderConnectorExposure, renderExposureReport } from './exposure.render.js';

export { APPLICATION_EXPORT, APPLICATION_MODULE_FILE, EXPOSURE_HELP } from './command-help.js';

const COMMAND = 'wildo exposure';

/** Options of `wildo exposure`. */
export interface ExposureOptions extends ApplicationLocation {
  /** Canonical JSON (sorted keys and entries) instead of the human report. */
  json: boolean;
  /** The recorded contract file (`wildo verify --record`); default: wildo.contract.json beside the declaration. */
  contracts?: string;
  /** A manifest directory holding the declarations, instead of an application file. */
  manifest?: string;
}

/**
 * Prints what the application exposes over MCP for every declared operation (engine modules included): to
 * whom, on which catalogue or why not, what a model sends and what it is shown. Returns the exit code.
 */
export async function runExposure(options: ExposureOptions, output: CliOutput): Promise<number> {
  try {
    // Loaded on use: the engine's modules are not needed by the CLI's other commands.
    const { buildApplicationExposure } = await import('../engine/toolchain/index.js');
    const loaded =
      options.manifest !== undefined
        ? await loadManifest(options.cwd, options.manifest)
        : await loadApplication(options);
    const contracts = await readRecordedContracts(options, loaded.file);
    const report = buildApplicationExposure(loaded.application, contracts);
    output.out(
      options.json
        ? toCanonicalJson(report)
        : renderExposureReport(report, { file: loaded.file, exportName: loaded.exportName }) +
            renderConnectorExposure(report.connectors),
    );
    return 0;
  } catch (error) {
    return reportFailure(error, output);
  }
}

/** A manifest directory as an application of one module (the manifest's company). */
async function loadManifest(cwd: string, manifest: string) {
  const { loadCapabilityManifest } = await import('../engine/connectors/index.js');
  const module = loadCapabilityManifest({ directory: path.resolve(cwd, manifest) });
  return { application: { name: module.name, modules: [module] }, file: manifest, exportName: 'manifest' };
}

/** The recorded contracts, when there is a file (observed-but-withheld paths come from it). */
async function readRecordedContracts(options: ExposureOptions, appFile: string): Promise<ContractFile | undefined> {
  const base = options.app !== undefined || options.manifest !== undefined ? options.cwd : resolveProjectRoot(options);
  const beside =
    options.manifest !== undefined ? path.resolve(base, appFile) : path.dirname(path.resolve(base, appFile));
  const file = options.contracts ? path.resolve(options.cwd, options.contracts) : path.join(beside, CONTRACT_FILE);
  if (!existsSync(file)) {
    if (options.contracts) throw new ApplicationLoadError(`No contract file at ${options.contracts}.`);
    return undefined;
  }
  return JSON.parse(await readFile(file, 'utf8')) as ContractFile;
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
