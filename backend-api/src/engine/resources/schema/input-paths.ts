/** A step into a JSON value: an object key or an array index. */
export type JsonPathSegment = string | number;

/** A key that may be named in a problem: the contract's vocabulary looks like this; anything else is not repeated. */
const PLAUSIBLE_IDENTIFIER = /^[A-Za-z0-9_.-]{1,64}$/;

/**
 * Whether a submitted key may be repeated in a problem's path: short, plain identifier characters only. A key
 * that is not (markup, a sentence, unstorable text) is reported at its parent instead.
 */
export function isPlausibleIdentifier(key: string): boolean {
  return PLAUSIBLE_IDENTIFIER.test(key);
}

/** `a.b[2].c`; the root is `(root)` unless another label is given. */
export function formatPath(path: readonly JsonPathSegment[], root = '(root)'): string {
  let out = '';
  for (const segment of path) out += typeof segment === 'number' ? `[${segment}]` : out ? `.${segment}` : segment;
  return out || root;
}

/** A submitted path as a problem may show it: cut before the first key that is not a plausible identifier. */
export function reportablePath(path: readonly JsonPathSegment[], root = '(root)'): string {
  const cut = path.findIndex((segment) => typeof segment === 'string' && !isPlausibleIdentifier(segment));
  return formatPath(cut < 0 ? path : path.slice(0, cut), root);
}
