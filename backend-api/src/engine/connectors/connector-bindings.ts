import type { ResourcesApplication } from '../resources/index.js';
import type { CompiledOperation, CompiledResource } from '../resources/index.js';
import { servicePathOf } from '../resources/index.js';
import { DeclarationValidationError, type DeclarationProblem } from '../resources/index.js';
import { bindingLabel, compileBinding, type CompiledBinding } from './compile-binding.js';
import { declaredBindings } from './bind-resource.js';

/** The default variant of a resource's operation, when the resource compiled. */
function operationOf(
  resources: ReadonlyMap<string, CompiledResource>,
  resourceType: string,
  operation: string,
): CompiledOperation | undefined {
  return resources.get(resourceType)?.operations.get(servicePathOf(resourceType, operation));
}

/**
 * Compiles every connector binding of an application against the operations they answer. `problems` receives one
 * line per mistake (the binding, the path inside it, the fix); bindings of resources already refused add none.
 */
export function compileApplicationBindings(
  application: ResourcesApplication,
  resources: ReadonlyMap<string, CompiledResource>,
  refusedTypes: ReadonlySet<string>,
  problems: DeclarationProblem[],
): CompiledBinding[] {
  const compiled: CompiledBinding[] = [];
  const seen = new Set<string>();
  for (const declared of declaredBindings(application)) {
    if (refusedTypes.has(declared.resourceType)) continue;
    const key = `${declared.resourceType}.${declared.operation}`;
    if (seen.has(key)) {
      problems.push({
        declaration: bindingLabel(declared),
        path: '(operation)',
        message: 'this operation is bound twice; keep one binding',
      });
      continue;
    }
    seen.add(key);
    const binding = compileBinding(
      declared,
      operationOf(resources, declared.resourceType, declared.operation),
      problems,
    );
    if (binding) compiled.push(binding);
  }
  return compiled;
}

/** Compiles an application's bindings, refusing (throwing) on any problem: what start-up runs after validation. */
export function compileBindingsOrThrow(
  application: ResourcesApplication,
  resources: ReadonlyMap<string, CompiledResource>,
): CompiledBinding[] {
  const problems: DeclarationProblem[] = [];
  const compiled = compileApplicationBindings(application, resources, new Set(), problems);
  if (problems.length > 0) throw new DeclarationValidationError(problems);
  return compiled;
}
