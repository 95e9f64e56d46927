import path from 'node:path';
import { describe, expect, it } from 'vitest';
// Imported as a consumer imports them: the package entry.
import { LINT_RULES, lintDeclarations, type DeclarationSnapshot, type LintFinding } from '@wildo/backend-api/toolchain';
import { runWildoCli } from './wildo.cli.js';

// `wildo doctor` on an application carrying one flaw per lint, and on the reference application, which has none.

const fixtures = path.join(import.meta.dirname, 'toolchain-fixtures');
const repositoryRoot = path.resolve(import.meta.dirname, '../../..');
const LOADS_ENGINE = 60_000;

async function doctorJson(cwd: string, ...args: string[]) {
  const result = await runWildoCli(['doctor', '--json', ...args], { cwd });
  return { ...result, report: JSON.parse(result.stdout || '{}') as { checked: number; findings: LintFinding[] } };
}

describe('wildo doctor', () => {
  it(
    'finds each lint on the flawed application, with its path and fix, and exits 1',
    async () => {
      const { exitCode, report, stderr } = await doctorJson(fixtures, '--app', 'agency-flaws.fixtures.ts');
      expect(stderr).toBe('');
      expect(exitCode).toBe(1);
      const found = (rule: string) => report.findings.filter((f) => f.rule === rule).map((f) => f.capability);
      expect(found('irreversible-without-failures')).toEqual(['bookings.cancel']);
      expect(found('write-without-authentication')).toEqual(['notices.post']);
      expect(found('rate-limit-gap')).toEqual(['bookings.find#unlimited']);
      expect(found('html-without-origins')).toEqual(['bookings.page']);
      expect(found('rls-organization-missing')).toEqual(['bookings.report']);
      expect(found('env-base-url-scheme').sort()).toEqual([
        'bookings.cancel',
        'bookings.find',
        'bookings.find#unlimited',
        'bookings.page',
      ]);
      const cancel = report.findings.find((f) => f.rule === 'irreversible-without-failures');
      expect(cancel).toMatchObject({
        severity: 'error',
        path: 'module "agency" > bookings.customOperations.cancel',
        fix: expect.stringContaining('declare failures'),
      });
      expect(report.findings.find((f) => f.rule === 'html-without-origins')?.path).toBe(
        'module "agency" > bookings.customOperations.page.responseSchema.descriptionHtml',
      );
    },
    LOADS_ENGINE,
  );

  it(
    'counts an environment schema that checks the scheme, and prints people a line per finding',
    async () => {
      const result = await runWildoCli(
        ['doctor', '--app', 'agency-flaws.fixtures.ts', '--env-schema', 'agency-environment.fixtures.ts'],
        { cwd: fixtures },
      );
      expect(result.exitCode).toBe(1);
      expect(result.stdout).not.toContain('env-base-url-scheme');
      expect(result.stdout).toContain('  error    bookings.cancel  is irreversible and declares no failures');
      expect(result.stdout).toMatch(/6 capabilities checked: 4 errors, 1 warnings\n$/);
      expect(result.stdout).not.toContain('\u001b[');
    },
    LOADS_ENGINE,
  );

  it(
    'finds nothing on the reference application and exits 0',
    async () => {
      const { exitCode, report, stderr } = await doctorJson(path.join(repositoryRoot, 'backend-api', 'src'));
      expect(stderr).toBe('');
      expect(report.findings).toEqual([]);
      expect(report.checked).toBeGreaterThan(10);
      expect(exitCode).toBe(0);
    },
    LOADS_ENGINE,
  );

  it('refuses an approval on a read (declared on the capability as the approval step reads it)', () => {
    const read = {
      id: 'stays.details',
      resource: 'stays',
      operation: 'details',
      declaredIn: 'module "stays"',
      scope: 'ORGANIZATIONS',
      effect: 'read',
      roles: ['ORG_MEMBER'],
      lifecycle: 'stable',
      http: null,
      mcp: null,
      authenticated: false,
      allow: [],
      deny: [],
      rateLimit: null,
      approval: true,
      reauthentication: false,
      failures: {},
      input: [],
      output: [],
      governed: [],
      binding: null,
    };
    const snapshot: DeclarationSnapshot = {
      application: 'stays',
      capabilities: [read, { ...read, id: 'stays.book', operation: 'book', effect: 'write' }],
    };
    expect(lintDeclarations(snapshot).map((f) => [f.rule, f.capability, f.path])).toEqual([
      ['approval-on-read', 'stays.details', 'module "stays" > stays.operationsConfiguration.details.approval'],
    ]);
  });

  it('lists every rule, examples and exit codes in --help', async () => {
    const help = await runWildoCli(['doctor', '--help'], { cwd: fixtures });
    for (const rule of Object.keys(LINT_RULES)) expect(help.stdout).toContain(rule);
    expect(help.stdout).toContain('Examples:');
    expect(help.stdout).toContain('Exit codes: 0 no error');
  });
});
