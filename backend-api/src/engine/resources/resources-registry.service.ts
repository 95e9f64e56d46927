import type { ResourcesApplication } from './resources-module.js';
import { FrameworkError } from '../errors/index.js';
import { validateApplication } from './application-validation.js';
import type { CompiledOperation, CompiledResource } from './compiled-resource.types.js';
import { compileResource } from './resource-compiler.js';
import { servicePathOf } from './resource-naming.js';
import { DeclarationValidationError, type DeclarationProblem } from './resources.errors.js';

/** An application's resources compiled, with every problem found: what start-up validation reads further. */
export interface CompiledApplicationResources {
  /** The resources that compiled, by type. */
  resources: ReadonlyMap<string, CompiledResource>;
  /** Types whose declaration was refused: already reported, so nothing that names them adds a line of its own. */
  refusedTypes: ReadonlySet<string>;
  problems: DeclarationProblem[];
}

/** Compiles every resource of an application and checks them together; refuses nothing itself (see `problems`). */
export function compileApplicationResources(application: ResourcesApplication): CompiledApplicationResources {
  const problems: DeclarationProblem[] = [];
  const resources = new Map<string, CompiledResource>();
  const refusedTypes = new Set<string>();
  for (const module of application.modules) {
    for (const declaration of module.resources ?? []) {
      const { resource, problems: found } = compileResource(declaration, module.name);
      problems.push(...found);
      if (!resource) {
        // A declaration malformed enough to lack its type cannot be named by anything else either.
        if (typeof declaration.type === 'string') refusedTypes.add(declaration.type);
        continue;
      }
      if (resources.has(resource.type)) {
        problems.push({
          declaration: `resource "${resource.type}"`,
          path: 'type',
          message: `registered twice (module "${module.name}"); each type belongs to one module`,
        });
      }
      resources.set(resource.type, resource);
    }
  }
  problems.push(...validateApplication(application, resources, refusedTypes));
  return { resources, refusedTypes, problems };
}

/**
 * Every registered resource and operation, compiled once at start. Surfaces (REST, MCP, tools) look
 * operations up here; nothing is compiled per request.
 */
export class ResourcesRegistry {
  private readonly operationsByPath = new Map<string, CompiledOperation>();

  private constructor(private readonly resourcesByType: ReadonlyMap<string, CompiledResource>) {
    for (const resource of resourcesByType.values()) {
      for (const [path, op] of resource.operations) this.operationsByPath.set(path, op);
    }
  }

  /** Compiles and validates an application's declarations; throws {@link DeclarationValidationError} listing every problem. */
  static fromApplication(application: ResourcesApplication): ResourcesRegistry {
    return ResourcesRegistry.fromCompiled(compileApplicationResources(application));
  }

  /** The registry of an application's compiled resources; throws {@link DeclarationValidationError} when they have problems. */
  static fromCompiled(compiled: CompiledApplicationResources): ResourcesRegistry {
    if (compiled.problems.length > 0) throw new DeclarationValidationError(compiled.problems);
    return new ResourcesRegistry(compiled.resources);
  }

  /** The service path of an operation's default variant: `todos.read`. */
  getServiceOperationPathDefault(resourceType: string, operation: string): string {
    return servicePathOf(resourceType, operation);
  }

  /** The compiled operation at a service path; an unknown path is a programming error and throws. */
  getOperationFromPath(servicePath: string): CompiledOperation {
    const op = this.operationsByPath.get(servicePath);
    if (!op) throw new FrameworkError('NOT_FOUND', 'No such operation.', { details: { servicePath } });
    return op;
  }

  /** The operation at a service path, or undefined. */
  findOperation(servicePath: string): CompiledOperation | undefined {
    return this.operationsByPath.get(servicePath);
  }

  /** A compiled resource; throws for an unknown type. */
  getResource(resourceType: string): CompiledResource {
    const resource = this.resourcesByType.get(resourceType);
    if (!resource) throw new FrameworkError('NOT_FOUND', 'No such resource.', { details: { resourceType } });
    return resource;
  }

  /** Every compiled resource, in registration order. */
  listResources(): CompiledResource[] {
    return [...this.resourcesByType.values()];
  }

  /** Every compiled operation, in registration order. */
  listOperations(): CompiledOperation[] {
    return [...this.operationsByPath.values()];
  }
}
