/** A rule violation located in the configuration: the path to fix and what to do about it. */
export interface CrossFieldProblem {
  path: (string | number)[];
  message: string;
}

/** One problem of a configuration as reported to a person: `<path>: <message>`. */
export interface ConfigProblem {
  /** Dotted path from the configuration's root, such as `providers.scopes.backend.selection.AI_LLM.primary`. */
  path: string;
  message: string;
}

/** Formats a path as `a.b[0]["key-with-dash"]`; the root is `(root)`. */
export function formatConfigPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else if (typeof segment === 'symbol') out += `[${String(segment)}]`;
    else if (/^[A-Za-z_$][\w$]*$/.test(segment)) out += out === '' ? segment : `.${segment}`;
    else out += `[${JSON.stringify(segment)}]`;
  }
  return out === '' ? '(root)' : out;
}
