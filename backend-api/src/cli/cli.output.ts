/** Where a command writes: collected per stream so the CLI can be run and inspected as a function. */
export interface CliOutput {
  out(text: string): void;
  err(text: string): void;
}

const line = (text: string) => (text.endsWith('\n') ? text : `${text}\n`);

/**
 * A {@link CliOutput} that keeps everything written, for returning from `runWildoCli`; with `forward`, each write
 * is also passed on at once (the process entry streams, so a long-running command such as `wildo dev` is heard).
 */
export function createCapturedOutput(forward?: CliOutput): CliOutput & { stdout(): string; stderr(): string } {
  let stdout = '';
  let stderr = '';
  return {
    out: (text) => {
      stdout += line(text);
      forward?.out(line(text));
    },
    err: (text) => {
      stderr += line(text);
      forward?.err(line(text));
    },
    stdout: () => stdout,
    stderr: () => stderr,
  };
}

/** The process's own streams as a {@link CliOutput}. */
export const processOutput: CliOutput = {
  out: (text) => void process.stdout.write(line(text)),
  err: (text) => void process.stderr.write(line(text)),
};
