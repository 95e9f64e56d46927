// The help texts of the toolchain commands (diff, doctor, verify, adopt, init): examples and exit codes.

/** `wildo diff --help`, after the options. */
export const DIFF_HELP = [
  '',
  'Each side is an application file (loaded as `wildo exposure` loads one; --export picks',
  'the export) or a snapshot saved earlier with --save. Only declarations are read: no',
  'database, backend or network is opened.',
  '',
  'Classes:',
  '  breaking    a call that works today is refused or means something else',
  '              (capability removed, input field added as required or removed,',
  '              output field removed or retyped, role removed, deny/allow added,',
  '              effect raised, MCP server or REST route removed, retired)',
  '  notable     it still works, but a person should look (more reaches the caller',
  '              or more callers reach it, approval, rate limit, origins, binding)',
  '  compatible  nothing to do (optional input added, input widened, ...)',
  '',
  'Examples:',
  '  wildo diff ../main/backend-api/src/modules/index.ts backend-api/src/modules/index.ts',
  '  wildo diff --save release.json old.json backend-api/src/modules/index.ts',
  '  wildo diff --json before.json after.json | jq .counts',
  '',
  'Exit codes: 0 no breaking change; 1 at least one breaking change; 2 a side could',
  'not be read (missing file, load failure, not an application or snapshot).',
].join('\n');

/** `wildo doctor --help`, after the options (the rules are listed from the lints themselves). */
export function doctorHelp(rules: Readonly<Record<string, { severity: string; looksFor: string }>>): string {
  return [
    '',
    'Rules (error fails the run; warning is shown only):',
    ...Object.entries(rules).map(([id, rule]) => `  ${id.padEnd(30)} ${rule.severity.padEnd(8)} ${rule.looksFor}`),
    '',
    'The application is found as by `wildo exposure` (--app, --export). Base URLs taken',
    'from the environment count as checked when the environment schema',
    '(<root>/backend-api/src/environment.schema.ts, export BackendEnvironmentSchema, or',
    '--env-schema) refuses a value that is not an http(s) URL. Nothing is opened.',
    '',
    'Examples:',
    '  wildo doctor',
    '  wildo doctor --app src/app.ts --export application --json',
    '',
    'Exit codes: 0 no error (warnings may be shown); 1 an error, or the application could',
    'not be loaded.',
  ].join('\n');
}

/** `wildo verify --help`, after the options. */
export const VERIFY_HELP = [
  '',
  'The contract file (wildo.contract.json beside the declaration: the manifest',
  "directory, or the application file's folder) holds, per capability, the fixture",
  "input a person chose and, once recorded, the answer's paths and types (never its",
  'values); for SQL bindings, the tables row-level security guarded. Commit it.',
  '',
  'Verdicts:',
  '  green       the answer has every recorded path, with the recorded types',
  '  yellow      the backend gained fields (see wildo adopt); --strict fails on it',
  '  red         a field was lost or retyped, a declared value is missing, the call',
  '              failed, or row-level security was dropped',
  '  unrecorded  no contract yet (wildo verify --record)',
  '',
  'verify never writes a declaration or the contract file; --record writes only the',
  'contract file. Progress is shown on a terminal.',
  '',
  'Examples:',
  '  wildo verify --record --manifest manifest/',
  '  wildo verify --manifest manifest/ --strict',
  '  wildo verify --app src/app.ts --json',
  '',
  'Exit codes: 0 green (or yellow without --strict); 1 red, yellow with --strict, a',
  'recording that could not be made, or declarations that could not be loaded.',
].join('\n');

/** `wildo adopt --help`, after the options. */
export const ADOPT_HELP = [
  '',
  'For each field the backend gained (a yellow verdict of wildo verify), adopt shows',
  'the declaration it proposes (a field of the resource and its mapping) and asks a',
  'person: yes or no, then a description. Accepted fields are written into the',
  "manifest's YAML files (comments kept) and the contract is recorded again.",
  '',
  'Without a terminal, answers come from --answers <file>:',
  '  { "wanderlust.availability": { "wifi": { "adopt": true, "description": "..." } } }',
  'A field with no answer (no terminal and no file, or no entry) writes nothing at all.',
  '',
  'Examples:',
  '  wildo adopt --manifest manifest/',
  '  wildo adopt --manifest manifest/ --answers answers.json',
  '',
  'Exit codes: 0 adopted (or nothing to adopt); 1 a field got no answer (nothing was',
  'written), or the declarations or the contract could not be read.',
].join('\n');

/** `wildo init --help`, after the options. */
export const INIT_HELP = [
  '',
  'Reads an OpenAPI 3.0 or 3.1 description (YAML or JSON; $ref and allOf resolved with',
  '@readme/openapi-parser; only local references are followed) and lists one candidate',
  'capability per operation: its inputs (path and query parameters, the JSON body) and',
  'its output (the JSON of the first 2xx answer), as paths and types.',
  '',
  "No effect is guessed from a method: a write's effect is a person's decision. On a",
  'terminal, init asks for each; otherwise --decisions <file> sets them:',
  '  effects:',
  '    search-stays: read',
  '    cancel: irreversible',
  '    get-stay: skip',
  'Until every candidate is decided, nothing is written.',
  '',
  'Examples:',
  '  wildo init openapi.yaml',
  '  wildo init openapi.json --decisions decisions.yaml --out candidates.json',
  '',
  'Exit codes: 0 the candidates were written; 1 an effect is undecided (nothing',
  'written), or the description or the decisions could not be read.',
].join('\n');
