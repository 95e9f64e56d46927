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
