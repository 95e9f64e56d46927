/** The package managers a scaffolded application is set up for. */
export const PACKAGE_MANAGERS = ['npm', 'pnpm'] as const;
export type PackageManager = (typeof PACKAGE_MANAGERS)[number];

/** The framework's packages: an application depends on the first three (the CLI brings the scaffolder along). */
export const FRAMEWORK_PACKAGES = [
  '@wildo/backend-api',
  '@wildo/shared-lib',
  '@wildo/frontend',
  'create-wildo',
] as const;
export type FrameworkPackage = (typeof FRAMEWORK_PACKAGES)[number];

/** What to scaffold; everything but the directory has a default. */
export interface ScaffoldOptions {
  /** Where the application is written (created; it must not exist or be empty). */
  dir: string;
  /** The application's package name; default: the directory's name. */
  name?: string;
  /** The module's resource type, kebab-case and plural (`tickets`, `purchase-orders`); default `tickets`. */
  moduleName?: string;
  /** Default `npm`. */
  packageManager?: PackageManager;
  /** Serve the host UI (sign-up, organizations, the declared resources' pages) from the backend; default true. */
  hostUi?: boolean;
  /**
   * The framework packages' specs (`^0.1.0` by default): a tarball (`file:../wildo-backend-api-0.1.0.tgz`) or another
   * registry name installs them from there, and the nested references follow (npm `overrides`, pnpm `overrides`).
   */
  frameworkSpecs?: Partial<Record<FrameworkPackage, string>>;
}

/** The options with their defaults applied and the names derived from the module. */
export interface ResolvedScaffold {
  dir: string;
  name: string;
  packageManager: PackageManager;
  hostUi: boolean;
  frameworkSpecs: Record<FrameworkPackage, string>;
  module: ModuleNames;
}

/** The names one module is written with. */
export interface ModuleNames {
  /** Resource type and folder: `purchase-orders`. */
  type: string;
  /** `PurchaseOrders`. */
  pascal: string;
  /** `purchaseOrders`. */
  camel: string;
  /** `Purchase orders`. */
  display: string;
}

/** A scaffold that cannot be written, with the fix in one line. */
export class ScaffoldError extends Error {
  override readonly name = 'ScaffoldError';
}

const MODULE_NAME = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;
const PACKAGE_NAME = /^(@[a-z0-9-~][a-z0-9-._~]*\/)?[a-z0-9-~][a-z0-9-._~]*$/;

/** Derives a module's names from its kebab-case resource type, refusing anything else. */
export function moduleNames(type: string): ModuleNames {
  if (!MODULE_NAME.test(type) || type.length > 40)
    throw new ScaffoldError(
      `module name "${type}" is not a kebab-case resource type (lower-case words joined by "-", like "tickets" or "purchase-orders")`,
    );
  const words = type.split('-');
  const pascal = words.map((word) => word[0]?.toUpperCase() + word.slice(1)).join('');
  const display = words.join(' ');
  return {
    type,
    pascal,
    camel: pascal[0]?.toLowerCase() + pascal.slice(1),
    display: display[0]?.toUpperCase() + display.slice(1),
  };
}

/** Applies the defaults and checks the names. */
export function resolveScaffold(options: ScaffoldOptions, frameworkVersion: string): ResolvedScaffold {
  const packageManager = options.packageManager ?? 'npm';
  if (!PACKAGE_MANAGERS.includes(packageManager))
    throw new ScaffoldError(`package manager "${String(packageManager)}" is not one of ${PACKAGE_MANAGERS.join(', ')}`);
  const base =
    options.dir
      .replace(/[\\/]+$/, '')
      .split(/[\\/]/)
      .pop() ?? '';
  const name = options.name ?? base.toLowerCase();
  if (!PACKAGE_NAME.test(name))
    throw new ScaffoldError(`"${name}" is not a valid package name; pass --name <package-name>`);
  const range = `^${frameworkVersion}`;
  return {
    dir: options.dir,
    name,
    packageManager,
    hostUi: options.hostUi ?? true,
    frameworkSpecs: {
      '@wildo/backend-api': options.frameworkSpecs?.['@wildo/backend-api'] ?? range,
      '@wildo/shared-lib': options.frameworkSpecs?.['@wildo/shared-lib'] ?? range,
      '@wildo/frontend': options.frameworkSpecs?.['@wildo/frontend'] ?? range,
      'create-wildo': options.frameworkSpecs?.['create-wildo'] ?? range,
    },
    module: moduleNames(options.moduleName ?? 'tickets'),
  };
}
