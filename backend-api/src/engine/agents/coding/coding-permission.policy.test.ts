import { AgentClientProtocol_PermissionCeiling as Ceiling } from '@wildo/shared-lib';
import { describe, expect, it } from 'vitest';
import { answerPermission, ceilingAdmits, clientMethodsOf } from './coding-permission.policy.js';

const OFFERED = [
  { optionId: 'always', name: 'Always', kind: 'allow_always' as const },
  { optionId: 'once', name: 'Once', kind: 'allow_once' as const },
  { optionId: 'no', name: 'No', kind: 'reject_once' as const },
];

describe('the permission ceiling', () => {
  it.each([
    [
      Ceiling.READ_ONLY,
      ['read', 'search', 'think'],
      ['edit', 'delete', 'move', 'execute', 'fetch', 'switch_mode', 'other'],
    ],
    [Ceiling.WORKSPACE_WRITE, ['read', 'edit', 'delete', 'move'], ['execute', 'fetch', 'switch_mode', 'other']],
    [Ceiling.UNRESTRICTED, ['read', 'edit', 'execute', 'fetch', 'switch_mode', 'other'], []],
  ])('%s admits its categories and no other', (ceiling, admitted, refused) => {
    for (const kind of admitted) expect(ceilingAdmits(ceiling, kind), kind).toBe(true);
    for (const kind of refused) expect(ceilingAdmits(ceiling, kind), kind).toBe(false);
  });

  it('offers writes from WORKSPACE_WRITE and terminals only when unrestricted', () => {
    expect(clientMethodsOf(Ceiling.READ_ONLY)).toEqual({ writeTextFile: false, terminal: false });
    expect(clientMethodsOf(Ceiling.WORKSPACE_WRITE)).toEqual({ writeTextFile: true, terminal: false });
    expect(clientMethodsOf(Ceiling.UNRESTRICTED)).toEqual({ writeTextFile: true, terminal: true });
  });
});

describe('answering a permission request', () => {
  it('allows with the single-use option, never the standing one', () => {
    expect(answerPermission(OFFERED, { allow: true })).toEqual({
      outcome: { outcome: 'selected', optionId: 'once' },
      decision: 'allowed',
      optionId: 'once',
    });
  });

  it('refuses when only a standing allow is offered', () => {
    expect(answerPermission([OFFERED[0]!, OFFERED[2]!], { allow: true })).toMatchObject({
      decision: 'refused',
      optionId: 'no',
      reason: 'no_single_use_option',
    });
  });

  it('refuses with the reject option, or answers cancelled when none is offered', () => {
    expect(answerPermission(OFFERED, { allow: false, reason: 'above_ceiling' })).toMatchObject({
      outcome: { outcome: 'selected', optionId: 'no' },
      decision: 'refused',
    });
    expect(answerPermission([OFFERED[1]!], { allow: false, reason: 'not_permitted' })).toEqual({
      outcome: { outcome: 'cancelled' },
      decision: 'refused',
      reason: 'not_permitted',
    });
  });
});
