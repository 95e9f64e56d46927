import { createInterface } from 'node:readline/promises';
import type { CliOutput } from './cli.output.js';

/** How a command marks its words: colours and progress on a terminal only, plain text in a pipe or a file. */
export interface CliStyle {
  readonly colors: boolean;
  red: (text: string) => string;
  yellow: (text: string) => string;
  green: (text: string) => string;
  bold: (text: string) => string;
  dim: (text: string) => string;
  /** `[3/12] hotels.find` on standard error, on a terminal only (a pipe gets the result alone). */
  progress: (done: number, total: number, label: string) => void;
}

/** The style of one run: `colors` when standard output is a terminal and NO_COLOR is not set. */
export function createStyle(colors: boolean, output: CliOutput): CliStyle {
  // SGR codes written directly: the decision (a terminal, NO_COLOR) is made once by the process entry.
  const paint = (open: number, close: number) => (text: string) =>
    colors ? `\u001b[${open}m${text}\u001b[${close}m` : text;
  return {
    colors,
    red: paint(31, 39),
    yellow: paint(33, 39),
    green: paint(32, 39),
    bold: paint(1, 22),
    dim: paint(2, 22),
    progress: (done, total, label) => {
      if (colors) output.err(`\u001b[2m[${done}/${total}] ${label}\u001b[22m`);
    },
  };
}

/** Whether the process's own output is a terminal that takes colours. */
export function terminalColors(env: Readonly<Record<string, string | undefined>> = process.env): boolean {
  return process.stdout.isTTY === true && env.NO_COLOR === undefined && env.TERM !== 'dumb';
}

/** Asks one question on the process's terminal; undefined when input ends without an answer. */
export async function terminalPrompt(question: string): Promise<string | undefined> {
  const reader = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return await reader.question(question);
  } catch {
    return undefined;
  } finally {
    reader.close();
  }
}
