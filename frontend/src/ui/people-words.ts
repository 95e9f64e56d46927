import { roleName } from '../organizations/roles';
import { dateTimeText } from './dates';

/**
 * The one translation from the API's refusals (written for programs: contract wording, role codes) into the words a
 * person reads on a page. Every form and alert goes through here; the API keeps its wording for programs.
 */

/** What this translation reads of a failed call (the shape of `ApiError`, without importing the client). */
interface RefusalLike {
  message: string;
  status: number;
  code: string;
  details: { reason?: string; problems?: readonly { path: string; expected: string }[]; retryAfterSeconds?: number };
}

function isRefusal(error: unknown): error is RefusalLike {
  return (
    error instanceof Error &&
    typeof (error as Partial<RefusalLike>).code === 'string' &&
    typeof (error as Partial<RefusalLike>).status === 'number' &&
    typeof (error as Partial<RefusalLike>).details === 'object'
  );
}

/** Role codes as the API writes them (`ORG_ADMIN`, `APP_USER`). */
const ROLE_CODE = /\b(?:ORG|APP)_[A-Z]+\b/g;

/** Words that belong to the contract, never to a page (the vocabulary test asserts none is ever shown). */
export const CONTRACT_VOCABULARY = /operation contract|Expected a|\b(?:ORG|APP)_[A-Z]+\b|undeclared|ISO 8601/;

/** What a person may do about what was refused, when the page knows it. */
export interface RefusalContext {
  /** The least role the refused action needs (an organization or application role code). */
  requiredRole?: string | undefined;
}

/** Replaces role codes with the names the pages use (`ORG_ADMIN` → `Admin`). */
export function withRoleNames(text: string): string {
  return text.replace(ROLE_CODE, (code) => roleName(code));
}

/** A server's sentence for a person: role codes as display names, contract wording replaced. */
export function plainText(message: string): string {
  const text = withRoleNames(message);
  return CONTRACT_VOCABULARY.test(text) ? 'It was not accepted.' : text;
}

/** One field's problem, as the API states the expectation (`a string of at least 10 characters`), in plain words. */
export function plainFieldProblem(expected: string): string {
  let match: RegExpExecArray | null;
  if (expected === 'required') return 'Fill in this field.';
  if ((match = /^a string of at least (\d+) characters?$/.exec(expected)))
    return match[1] === '1' ? 'Fill in this field.' : `Use at least ${match[1]} characters.`;
  if ((match = /^a string of at most (\d+) characters?$/.exec(expected))) return `Use at most ${match[1]} characters.`;
  if ((match = /^(at least|at most) (\d+) items$/.exec(expected))) return `Choose ${match[1]} ${match[2]}.`;
  if ((match = /^a number (>=|>|<=|<) (-?[\d.]+)$/.exec(expected))) {
    const words = { '>=': 'at least', '>': 'more than', '<=': 'at most', '<': 'less than' } as const;
    return `Use a number ${words[match[1] as keyof typeof words]} ${match[2]}.`;
  }
  if (expected === 'an email address') return 'Enter an email address like name@example.com.';
  if (expected === 'a URL') return 'Enter a web address such as https://example.com.';
  if (expected.startsWith('an ISO 8601 date-time')) return 'Enter a date and time.';
  if (expected.startsWith('an ISO 8601 date')) return 'Enter a date.';
  if (expected.startsWith('one of')) return 'Choose one of the options offered.';
  if (expected.startsWith('not writable')) return 'This cannot be changed here.';
  if (expected.startsWith('text without NUL')) return 'Remove the invisible control characters from this text.';
  if (/^(a|an) (string|number|integer|boolean)$/.test(expected)) return 'Check this value.';
  if (expected.includes('declared') || expected === 'no request body')
    return 'This page sent something the server does not accept. Reload the page and try again.';
  return 'Check this value.';
}

/** The sign-in, sign-up and invitation forms' own check of an address, before anything is sent. */
export function emailProblem(value: string): string | undefined {
  const email = value.trim();
  if (email.length === 0) return 'Enter an email address.';
  // The shape the API accepts (a local part, `@`, a domain with a dot): `mara` and `mara@home` are not addresses.
  if (!/^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/.test(email)) return 'Enter an email address like name@example.com.';
  return undefined;
}

/** A field name as a person reads it (`displayName` → `Display name`). */
function fieldLabel(field: string): string {
  const words = field.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/[_-]+/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1).toLowerCase();
}

/** The field a problem belongs to: the first segment of its path (`(request)` for the whole request). */
export function fieldOf(problem: { path: string }): string {
  return problem.path.split(/[.[]/)[0] || '(request)';
}

/** The input problems of a refusal, grouped by field, each in plain words. */
export function plainFieldProblems(error: unknown): Record<string, string> {
  if (!isRefusal(error) || !error.details.problems) return {};
  const problems: Record<string, string> = {};
  for (const problem of error.details.problems) {
    const field = fieldOf(problem);
    const text = plainFieldProblem(problem.expected);
    if (!problems[field]?.includes(text)) problems[field] = problems[field] ? `${problems[field]} ${text}` : text;
  }
  return problems;
}

/** What the person should read about a refused role: the role needed when the page knows it. */
function roleRefusal(context: RefusalContext): string {
  return context.requiredRole
    ? `Your role does not allow this: it needs the ${roleName(context.requiredRole)} role.`
    : 'Your role does not allow this. Ask an admin of the organization if you need it.';
}

/** Any failure as a sentence for an alert: plain words, display names for roles, what to do next where known. */
export function plainFailure(error: unknown, context: RefusalContext = {}): string {
  if (!isRefusal(error)) return 'Something went wrong. Try again.';
  if (error.code === 'VALIDATION_FAILED' && error.details.problems?.length) {
    const problems = plainFieldProblems(error);
    return Object.entries(problems)
      .map(([field, text]) => (field === '(request)' ? text : `${fieldLabel(field)}: ${text}`))
      .join(' ');
  }
  if (error.details.reason === 'budget_exhausted') {
    const seconds = error.details.retryAfterSeconds;
    const renews = seconds === undefined ? null : dateTimeText(new Date(Date.now() + seconds * 1000).toISOString());
    return `Your organization has used its assistant allowance for this month.${renews ? ` It renews on ${renews}.` : ''}`;
  }
  if (error.code === 'FORBIDDEN' && error.details.reason === 'role_refused') return roleRefusal(context);
  if (error.code === 'FORBIDDEN' && /not allowed to perform/.test(error.message)) return roleRefusal(context);
  const message = withRoleNames(error.message);
  if (CONTRACT_VOCABULARY.test(message)) return 'This was not accepted. Check what you entered and try again.';
  if (error.status === 429 && error.details.retryAfterSeconds !== undefined)
    return `${message} You can try again in about ${waitText(error.details.retryAfterSeconds)}.`;
  return message;
}

function waitText(seconds: number): string {
  if (seconds < 90) return seconds === 1 ? '1 second' : `${seconds} seconds`;
  const minutes = Math.ceil(seconds / 60);
  return minutes < 90 ? `${minutes} minutes` : `${Math.ceil(minutes / 60)} hours`;
}
