import type { FieldShape } from './schema-fields.js';
import type { CapabilitySnapshot, DeclarationSnapshot } from './declaration-snapshot.js';

// Two declaration sets compared capability by capability, field by field. Each change is classed by what it does to
// someone already calling: breaking (a call that worked stops working, or means something else), notable (it still
// works, but a person should look: more reaches the caller, or more callers reach it), compatible (nothing to do).

/** How much a change matters to existing callers. */
export type ChangeClass = 'breaking' | 'notable' | 'compatible';

/** One change between two declaration sets. */
export interface DeclarationChange {
  class: ChangeClass;
  /** The capability (`hotels.book`). */
  capability: string;
  /** What changed: the capability itself, a contract field, or one of its governance settings. */
  subject:
    | 'capability'
    | 'input'
    | 'output'
    | 'effect'
    | 'roles'
    | 'policy'
    | 'approval'
    | 'mcp'
    | 'http'
    | 'lifecycle'
    | 'failure'
    | 'origins'
    | 'binding';
  change: 'added' | 'removed' | 'changed';
  /** The field path, role, failure code or origin concerned. */
  item?: string;
  before?: string;
  after?: string;
  /** Why it is in its class, in a sentence. */
  reason: string;
  /** The surfaces it reaches: `REST POST /...`, `MCP tool hotels__book (travel-desk)`. */
  reaches: readonly string[];
}

/** Every change from `before` to `after`, breaking first; and the counts per class. */
export interface DeclarationDiff {
  before: string;
  after: string;
  changes: DeclarationChange[];
  counts: Record<ChangeClass, number>;
}

const EFFECT_RANK: Record<string, number> = { read: 0, write: 1, destructive: 2, irreversible: 3 };
const CLASS_ORDER: Record<ChangeClass, number> = { breaking: 0, notable: 1, compatible: 2 };

/** Compares two declaration sets (never the backends behind them: nothing is opened or called). */
export function diffDeclarations(before: DeclarationSnapshot, after: DeclarationSnapshot): DeclarationDiff {
  const changes: DeclarationChange[] = [];
  const old = new Map(before.capabilities.map((c) => [c.id, c]));
  const now = new Map(after.capabilities.map((c) => [c.id, c]));
  for (const [id, was] of old) {
    const is = now.get(id);
    if (!is)
      changes.push({
        class: 'breaking',
        capability: id,
        subject: 'capability',
        change: 'removed',
        reason: 'callers of it are refused from now on',
        reaches: reachesOf(was),
      });
    else compareCapability(was, is, changes);
  }
  for (const [id, is] of now) {
    if (old.has(id)) continue;
    const writes = (EFFECT_RANK[is.effect] ?? 0) > 0;
    changes.push({
      class: writes ? 'notable' : 'compatible',
      capability: id,
      subject: 'capability',
      change: 'added',
      after: is.effect,
      reason: writes
        ? `a new ${is.effect} capability: check who may call it and what it changes`
        : 'a new read; existing callers are not affected',
      reaches: reachesOf(is),
    });
  }
  changes.sort(
    (a, b) =>
      CLASS_ORDER[a.class] - CLASS_ORDER[b.class] ||
      a.capability.localeCompare(b.capability) ||
      a.subject.localeCompare(b.subject) ||
      (a.item ?? '').localeCompare(b.item ?? ''),
  );
  const counts: Record<ChangeClass, number> = { breaking: 0, notable: 0, compatible: 0 };
  for (const change of changes) counts[change.class] += 1;
  return { before: before.application, after: after.application, changes, counts };
}

/** The surfaces a capability is reached on. */
export function reachesOf(capability: CapabilitySnapshot): string[] {
  const reaches: string[] = [];
  if (capability.http) reaches.push(`REST ${capability.http}`);
  if (capability.mcp)
    reaches.push(
      `MCP tool ${capability.resource}__${capability.operation} (${capability.mcp.servers.join(', ') || 'default'})`,
    );
  if (capability.binding) reaches.push(`${capability.binding.kind.toUpperCase()} ${capability.binding.connector}`);
  return reaches;
}

type Push = (change: Omit<DeclarationChange, 'capability' | 'reaches'>) => void;

function compareCapability(was: CapabilitySnapshot, is: CapabilitySnapshot, changes: DeclarationChange[]): void {
  const reaches = [...new Set([...reachesOf(was), ...reachesOf(is)])];
  const push: Push = (change) => changes.push({ ...change, capability: was.id, reaches });
  compareEffect(was, is, push);
  compareFields('input', was.input, is.input, push);
  compareFields('output', was.output, is.output, push);
  compareRoles(was, is, push);
  comparePolicies(was, is, push);
  compareExposure(was, is, push);
  compareFailures(was, is, push);
  compareOrigins(was, is, push);
  compareBinding(was, is, push);
}

function compareEffect(was: CapabilitySnapshot, is: CapabilitySnapshot, push: Push): void {
  if (was.effect === is.effect) return;
  const worse = (EFFECT_RANK[is.effect] ?? 0) > (EFFECT_RANK[was.effect] ?? 0);
  push({
    class: worse ? 'breaking' : 'notable',
    subject: 'effect',
    change: 'changed',
    before: was.effect,
    after: is.effect,
    reason: worse
      ? 'callers that treat it as safe to retry or undo now cause lasting effects'
      : 'it does less than before; hints and approvals may be relaxed',
  });
}

/** Whether every type `narrow` allows is allowed by `wide` (`string` within `null|string`; `integer` within `number`). */
function within(narrow: string, wide: string): boolean {
  const allowed = new Set(wide.split('|'));
  if (allowed.has('any')) return true;
  return narrow.split('|').every((t) => allowed.has(t) || (t === 'integer' && allowed.has('number')));
}

function compareFields(
  side: 'input' | 'output',
  was: readonly FieldShape[],
  is: readonly FieldShape[],
  push: Push,
): void {
  const old = new Map(was.map((f) => [f.path, f]));
  const now = new Map(is.map((f) => [f.path, f]));
  // A field under a removed or added parent is reported with its parent only.
  const underReported = (path: string, reported: Set<string>) =>
    [...reported].some((p) => path.startsWith(`${p}.`) || path.startsWith(`${p}[]`));
  const removed = new Set<string>();
  for (const [path, field] of old) {
    if (now.has(path) || underReported(path, removed)) continue;
    removed.add(path);
    const breaking = side === 'input' || field.required;
    push({
      class: breaking ? 'breaking' : 'notable',
      subject: side,
      change: 'removed',
      item: path,
      before: field.type,
      reason:
        side === 'input'
          ? 'callers that send it are refused (inputs are strict)'
          : field.required
            ? 'callers that read it no longer get it'
            : 'an optional field callers may read is gone',
    });
  }
  const added = new Set<string>();
  for (const [path, field] of now) {
    if (old.has(path) || underReported(path, added)) continue;
    added.add(path);
    if (side === 'input')
      push({
        class: field.required ? 'breaking' : 'compatible',
        subject: side,
        change: 'added',
        item: path,
        after: field.type,
        reason: field.required ? 'existing calls lack it and are refused' : 'optional: existing calls still pass',
      });
    else
      push({
        class: 'notable',
        subject: side,
        change: 'added',
        item: path,
        after: field.type,
        reason: 'more information leaves the backend: check it is meant for every caller',
      });
  }
  for (const [path, field] of old) {
    const next = now.get(path);
    if (!next) continue;
    if (field.type !== next.type) {
      // Inputs may widen (more is accepted), outputs may narrow (less can arrive); anything else breaks someone.
      const safe = side === 'input' ? within(field.type, next.type) : within(next.type, field.type);
      push({
        class: safe ? 'compatible' : 'breaking',
        subject: side,
        change: 'changed',
        item: path,
        before: field.type,
        after: next.type,
        reason: safe
          ? 'every value valid before is still valid'
          : side === 'input'
            ? 'values callers send today may be refused'
            : 'callers may receive values of a type they do not expect',
      });
    }
    if (field.required !== next.required) {
      const tighter = side === 'input' ? next.required : !next.required;
      push({
        class: tighter ? 'breaking' : 'compatible',
        subject: side,
        change: 'changed',
        item: path,
        before: field.required ? 'required' : 'optional',
        after: next.required ? 'required' : 'optional',
        reason: tighter
          ? side === 'input'
            ? 'calls without it are refused'
            : 'callers may no longer get it'
          : side === 'input'
            ? 'calls without it now pass'
            : 'it is always present now',
      });
    }
  }
}

function compareRoles(was: CapabilitySnapshot, is: CapabilitySnapshot, push: Push): void {
  for (const role of was.roles)
    if (!is.roles.includes(role))
      push({
        class: 'breaking',
        subject: 'roles',
        change: 'removed',
        item: role,
        reason: 'callers holding only this role are refused',
      });
  for (const role of is.roles)
    if (!was.roles.includes(role))
      push({ class: 'notable', subject: 'roles', change: 'added', item: role, reason: 'more callers reach it' });
}

function comparePolicies(was: CapabilitySnapshot, is: CapabilitySnapshot, push: Push): void {
  const flag = (name: string, before: boolean, after: boolean, onReason: string, offReason: string) => {
    if (before === after) return;
    push({
      class: after ? 'breaking' : 'notable',
      subject: name === 'approval' ? 'approval' : 'policy',
      change: after ? 'added' : 'removed',
      item: name,
      reason: after ? onReason : offReason,
    });
  };
  flag(
    'authenticated',
    was.authenticated,
    is.authenticated,
    'anonymous callers are refused',
    'anonymous callers now reach it',
  );
  flag(
    'reauthentication',
    was.reauthentication,
    is.reauthentication,
    'calls without a fresh step-up proof are refused',
    'calls no longer need a step-up proof',
  );
  if (was.approval !== is.approval)
    push({
      class: 'notable',
      subject: 'approval',
      change: is.approval ? 'added' : 'removed',
      reason: is.approval ? 'each call now waits for a person' : 'calls no longer wait for a person',
    });
  const wasAllowAll = was.allow.length === 0;
  for (const entry of was.allow)
    if (!is.allow.includes(entry))
      push({
        class: 'breaking',
        subject: 'policy',
        change: 'removed',
        item: `allow ${entry}`,
        reason: 'callers it named are refused',
      });
  for (const entry of is.allow)
    if (!was.allow.includes(entry))
      push({
        class: wasAllowAll ? 'breaking' : 'notable',
        subject: 'policy',
        change: 'added',
        item: `allow ${entry}`,
        reason: wasAllowAll ? 'an allow list now refuses every caller it does not name' : 'more callers reach it',
      });
  for (const entry of is.deny)
    if (!was.deny.includes(entry))
      push({
        class: 'breaking',
        subject: 'policy',
        change: 'added',
        item: `deny ${entry}`,
        reason: 'callers it names are refused',
      });
  for (const entry of was.deny)
    if (!is.deny.includes(entry))
      push({
        class: 'notable',
        subject: 'policy',
        change: 'removed',
        item: `deny ${entry}`,
        reason: 'callers it named now reach it',
      });
  const rate = (r: CapabilitySnapshot['rateLimit']) => (r ? `${r.points} per ${r.durationSeconds}s` : 'none');
  if (rate(was.rateLimit) !== rate(is.rateLimit)) {
    const perSecond = (r: CapabilitySnapshot['rateLimit']) => (r ? r.points / r.durationSeconds : Infinity);
    const tighter = perSecond(is.rateLimit) < perSecond(was.rateLimit);
    push({
      class: 'notable',
      subject: 'policy',
      change: was.rateLimit ? (is.rateLimit ? 'changed' : 'removed') : 'added',
      item: 'rateLimit',
      before: rate(was.rateLimit),
      after: rate(is.rateLimit),
      reason: tighter ? 'busy callers are refused sooner' : 'callers may call it more often',
    });
  }
}

function compareExposure(was: CapabilitySnapshot, is: CapabilitySnapshot, push: Push): void {
  if (was.http !== is.http)
    push({
      class: was.http ? 'breaking' : 'notable',
      subject: 'http',
      change: was.http ? (is.http ? 'changed' : 'removed') : 'added',
      ...(was.http ? { before: was.http } : {}),
      ...(is.http ? { after: is.http } : {}),
      reason: was.http ? 'REST clients calling the old route get 404' : 'a new REST route',
    });
  const servers = (m: CapabilitySnapshot['mcp']) => (m ? (m.servers.length > 0 ? m.servers : ['default']) : []);
  for (const server of servers(was.mcp))
    if (!servers(is.mcp).includes(server))
      push({
        class: 'breaking',
        subject: 'mcp',
        change: 'removed',
        item: server,
        reason: 'MCP clients of this server lose the tool',
      });
  for (const server of servers(is.mcp))
    if (!servers(was.mcp).includes(server))
      push({
        class: 'notable',
        subject: 'mcp',
        change: 'added',
        item: server,
        reason: 'models connected to this server can now call it',
      });
  if (was.lifecycle !== is.lifecycle) {
    const retired = is.lifecycle === 'retired';
    push({
      class: retired ? 'breaking' : 'notable',
      subject: 'lifecycle',
      change: 'changed',
      before: was.lifecycle,
      after: is.lifecycle,
      reason: retired ? 'calls are refused as retired' : 'its listing changes for clients',
    });
  }
}

function compareFailures(was: CapabilitySnapshot, is: CapabilitySnapshot, push: Push): void {
  for (const code of Object.keys(is.failures))
    if (!(code in was.failures))
      push({
        class: 'notable',
        subject: 'failure',
        change: 'added',
        item: code,
        reason: 'callers may now receive this failure code',
      });
  for (const code of Object.keys(was.failures)) {
    if (!(code in is.failures))
      push({
        class: 'notable',
        subject: 'failure',
        change: 'removed',
        item: code,
        reason: 'the backend answer it named now fails with its status only',
      });
    else if (was.failures[code] !== is.failures[code])
      push({
        class: 'compatible',
        subject: 'failure',
        change: 'changed',
        item: code,
        reason: 'only its description changed',
      });
  }
}

function compareOrigins(was: CapabilitySnapshot, is: CapabilitySnapshot, push: Push): void {
  const originsOf = (c: CapabilitySnapshot) =>
    new Set(c.governed.flatMap((g) => g.origins.map((o) => `${g.path} ${o}`)));
  const old = originsOf(was);
  const now = originsOf(is);
  for (const item of old)
    if (!now.has(item))
      push({
        class: 'notable',
        subject: 'origins',
        change: 'removed',
        item,
        reason: 'values on it are withheld from now on',
      });
  for (const item of now)
    if (!old.has(item))
      push({ class: 'notable', subject: 'origins', change: 'added', item, reason: 'values on it now pass' });
}

function compareBinding(was: CapabilitySnapshot, is: CapabilitySnapshot, push: Push): void {
  const text = (b: CapabilitySnapshot['binding']) => (b ? `${b.kind} ${b.connector} ${b.target} ${b.call}` : 'none');
  if (text(was.binding) !== text(is.binding))
    push({
      class: 'notable',
      subject: 'binding',
      change: was.binding ? (is.binding ? 'changed' : 'removed') : 'added',
      before: text(was.binding),
      after: text(is.binding),
      reason: 'answers come from another place: record and verify the contract again',
    });
  const claims = (b: CapabilitySnapshot['binding']) => JSON.stringify(b?.identity ?? null);
  if (was.binding?.kind === 'sql' && is.binding?.kind === 'sql' && claims(was.binding) !== claims(is.binding))
    push({
      class: 'breaking',
      subject: 'binding',
      change: 'changed',
      item: 'identity',
      before: claims(was.binding),
      after: claims(is.binding),
      reason: 'row-level security reads other settings: rows may be filtered differently',
    });
}
