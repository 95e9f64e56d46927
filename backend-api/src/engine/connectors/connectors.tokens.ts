/** Container tokens of the connectors. */
export const CONNECTORS_TYPES = {
  /** The {@link ConnectorRuntime} bound by `createWildoBackend`: runs every connector-backed operation. */
  ConnectorRuntime: Symbol.for('wildo.connectors.ConnectorRuntime'),
} as const;
