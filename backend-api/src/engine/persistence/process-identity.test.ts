import { existsSync } from 'node:fs';
import { hostname } from 'node:os';
import { describe, expect, it } from 'vitest';
import { currentProcessIdentity, parseStartTicks, processState } from './process-identity.js';

const onLinux = existsSync('/proc/self/stat');

describe('parseStartTicks', () => {
  it('reads field 22 even when the command name holds spaces and parentheses', () => {
    const rest = Array.from({ length: 30 }, (_, i) => String(i + 3)).join(' ');
    expect(parseStartTicks(`4242 (node (x) y) ${rest}`)).toBe('22');
  });

  it('gives nothing for a line that is not a stat line', () => {
    expect(parseStartTicks('no parentheses here')).toBeUndefined();
  });
});

describe('processState', () => {
  it.skipIf(!onLinux)('knows this process as running, and the same pid with another start time as gone', async () => {
    const self = await currentProcessIdentity();
    expect(self.startTicks).toMatch(/^\d+$/);
    expect(await processState(self)).toBe('running');
    expect(await processState({ ...self, startTicks: `${self.startTicks}0` })).toBe('gone');
  });

  it('cannot tell for another host', async () => {
    expect(await processState({ pid: process.pid, host: `${hostname()}-elsewhere` })).toBe('elsewhere');
  });
});
