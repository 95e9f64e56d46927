/** Where a scenario writes its report lines (stdout for the script, a collector in tests). */
export type LogLine = (line: string) => void;

/** The outcome of one named check. */
export interface CheckResult {
  label: string;
  passed: boolean;
  detail?: string;
}

/** Counts of a finished run. */
export interface CheckSummary {
  passed: number;
  failed: number;
  failures: CheckResult[];
}

/** Records checks as they happen and prints one PASS/FAIL line for each. */
export interface CheckRecorder {
  readonly results: readonly CheckResult[];
  /** Records `condition` under `label`; `detail` is printed on failure only. Returns the condition. */
  check(label: string, condition: boolean, detail?: string): boolean;
  /** Prints a section heading, so a report reads in the scenario's order. */
  section(title: string): void;
  /** Prints and returns the totals. */
  summarize(): CheckSummary;
}

/** The process exit code of a run: 1 when any check failed or none ran (a run that checked nothing proved nothing). */
export function exitCodeOf(summary: Pick<CheckSummary, 'passed' | 'failed'>): 0 | 1 {
  return summary.failed > 0 || summary.passed === 0 ? 1 : 0;
}

/**
 * Creates a recorder writing to `log`. Details must never contain credentials: callers describe
 * responses by status, error code and request id (see `describeResponse`), not by their raw bodies.
 *
 * @example
 * const recorder = createCheckRecorder(console.log);
 * recorder.check('C-0 org A reads its own todo', res.status === 200, describeResponse(res));
 */
export function createCheckRecorder(log: LogLine): CheckRecorder {
  const results: CheckResult[] = [];
  const summarize = (): CheckSummary => {
    const failures = results.filter((r) => !r.passed);
    const passed = results.length - failures.length;
    log('');
    log(`${passed} passed, ${failures.length} failed (${results.length} checks)`);
    for (const failure of failures) log(`  FAIL ${failure.label}${failure.detail ? ` (${failure.detail})` : ''}`);
    return { passed, failed: failures.length, failures };
  };
  return {
    results,
    check(label, condition, detail) {
      results.push({ label, passed: condition, ...(detail !== undefined ? { detail } : {}) });
      log(condition ? `PASS ${label}` : `FAIL ${label}${detail ? ` (${detail})` : ''}`);
      return condition;
    },
    section(title) {
      log('');
      log(`== ${title}`);
    },
    summarize,
  };
}
