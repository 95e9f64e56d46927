/**
 * Thrown at start when a connector's backend is set up so that the framework's rules could not hold (a database
 * role that row-level security does not filter). The process refuses to start and prints each problem with its fix.
 */
export class ConnectorSetupError extends Error {
  override readonly name = 'ConnectorSetupError';

  constructor(readonly problems: readonly string[]) {
    super(
      `A connector's backend is not set up safely (${problems.length} problem${problems.length === 1 ? '' : 's'}):\n` +
        problems.map((problem) => `  - ${problem}`).join('\n'),
    );
  }
}
