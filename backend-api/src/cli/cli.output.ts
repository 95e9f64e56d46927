/** Where a command writes: collected per stream so the CLI can be run and inspected as a function. */
export interface CliOutput {
  out(text: string): void;
  err(text: string): void;
}

/** A {@link CliOutput} that keeps everything written, for returning from `runWildoCli`. */
export function createCapturedOutput(): CliOutput & { stdout(): string; stderr(): string } {
  let stdout = '';
  let stderr = '';
  return {
    out: (text) => {
      stdout += text.endsWith('\n') ? text : `${text}\n`;
    },
    err: (text) => {
      stderr += text.endsWith('\n') ? text : `${text}\n`;
    },
    stdout: () => stdout,
    stderr: () => stderr,
  };
}
