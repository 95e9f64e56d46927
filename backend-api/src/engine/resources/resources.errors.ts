/** One thing wrong with a declaration: which declaration, where in it, and what to do. */
export interface DeclarationProblem {
  /** e.g. `resource "todos"`, `module "tasks-manager"`. */
  declaration: string;
  /** Path inside the declaration, e.g. `operationsConfiguration.read.variants[0].roles[0]`. */
  path: string;
  message: string;
}

/**
 * Thrown at start when declarations are inconsistent. The process refuses to start and prints every
 * problem with the declaration it belongs to and the fix.
 */
export class DeclarationValidationError extends Error {
  override readonly name = 'DeclarationValidationError';

  constructor(readonly problems: readonly DeclarationProblem[]) {
    super(
      `The application's declarations are invalid (${problems.length} problem${problems.length === 1 ? '' : 's'}):\n` +
        problems.map((p) => `  - ${p.declaration} › ${p.path}: ${p.message}`).join('\n'),
    );
  }
}
