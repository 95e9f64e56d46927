import { describe, expect, it } from 'vitest';
import { runWildoCli } from './wildo.cli.js';

// Every command's --help shows examples and its exit codes, without colour outside a terminal.

const COMMANDS = [
  ['config', 'sync'],
  ['exposure'],
  ['check'],
  ['new'],
  ['dev'],
  ['users', 'grant-role'],
  ['users', 'revoke-role'],
  ['diff'],
  ['doctor'],
  ['verify'],
  ['adopt'],
  ['init'],
] as const;

describe('wildo --help', () => {
  it.each(COMMANDS.map((command) => [command.join(' ')]))('%s shows examples and exit codes', async (command) => {
    const help = await runWildoCli([...command.split(' '), '--help']);
    expect(help.exitCode).toBe(0);
    expect(help.stdout).toContain('Examples:');
    expect(help.stdout).toContain('Exit codes:');
    expect(help.stdout).not.toContain('\u001b[');
  });
});
