import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { referenceApplication } from '../../modules/index.js';
import { arbitraryFor, plainObjectsIn } from '../../testing/zod-arbitrary.js';
import { ResourcesRegistry } from '../resources/resources-registry.service.js';
import { breachesContract, newProjectionReport } from './projection.js';

const registry = ResourcesRegistry.fromApplication(referenceApplication);
/** Names an attacker or a leaky backend might add; none is declared anywhere in the reference application. */
const HOSTILE_KEYS = ['__proto__', 'constructor', 'passwordHash', 'margin', 'internal', 'toString'];
const EXTRA_MARK = '\u0000extra';

const extraValue = fc.oneof(
  fc.string(),
  fc.integer(),
  fc.constant(EXTRA_MARK),
  fc.dictionary(fc.string(), fc.constant(EXTRA_MARK), { maxKeys: 2 }),
);
const extraKey = fc.oneof(
  fc.constantFrom(...HOSTILE_KEYS),
  fc.string({ minLength: 1, maxLength: 12 }).map((k) => `~${k}`),
);
/** Extra fields: which object (by depth-first index) receives which key and value. */
const extras = fc.array(fc.tuple(fc.nat(), extraKey, extraValue), { minLength: 1, maxLength: 12 });

function inject(value: unknown, additions: [number, string, unknown][]): string[] {
  const objects = plainObjectsIn(value);
  const added: string[] = [];
  for (const [index, key, extra] of additions) {
    const target = objects[index % objects.length];
    if (!target || Object.hasOwn(target, key)) continue;
    // defineProperty creates an own "__proto__" key, as JSON.parse would, instead of changing the prototype.
    Object.defineProperty(target, key, { value: extra, enumerable: true, configurable: true, writable: true });
    added.push(key);
  }
  return added;
}

function ownKeysDeep(value: unknown, out = new Set<string>()): Set<string> {
  for (const object of plainObjectsIn(value)) for (const key of Object.keys(object)) out.add(key);
  return out;
}

const operations = registry.listOperations();

describe('projection drops undeclared fields at every depth, for every declared operation', () => {
  it('covers every declared resource', () => {
    expect(new Set(operations.map((op) => op.resourceType))).toEqual(
      new Set(registry.listResources().map((r) => r.type)),
    );
  });

  for (const operation of operations) {
    it(`${operation.servicePath}`, () => {
      fc.assert(
        fc.property(arbitraryFor(operation.responseSchema), extras, (declared, additions) => {
          const expected = structuredClone(declared);
          const polluted = structuredClone(declared);
          if (plainObjectsIn(polluted).length === 0) return;
          const added = inject(polluted, additions);
          const report = newProjectionReport();
          const projected = operation.projector.project(polluted, report);
          // Nothing added survives, at any depth, everything declared is kept as it was, and no breach is claimed.
          expect(projected).toEqual(expected);
          expect(breachesContract(report)).toBe(false);
          const keys = ownKeysDeep(projected);
          for (const key of added) if (!ownKeysDeep(expected).has(key)) expect(keys.has(key)).toBe(false);
          if (added.length > 0) expect(report.withheld.length).toBeGreaterThan(0);
        }),
        { numRuns: 150 },
      );
    });
  }
});
