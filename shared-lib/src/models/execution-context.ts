/** The kind of principal an operation runs for. Business code reads it instead of assuming a user. */
export enum ExecutionContext_ExecutionType {
  USER = 'USER',
  ORGANIZATION_MACHINE = 'ORGANIZATION_MACHINE',
  APPLICATION_MACHINE = 'APPLICATION_MACHINE',
  /** The engine itself (migrations, background jobs); never reachable from a network surface. */
  SYSTEM = 'SYSTEM',
}
