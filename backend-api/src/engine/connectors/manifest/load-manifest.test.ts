import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DeclarationValidationError } from '../../resources/index.js';
import { compileApplicationResources } from '../../resources/index.js';
import { compileApplicationBindings } from '../connector-bindings.js';
import { loadCapabilityManifest, operationNameOf } from './load-manifest.js';

// The loader against small manifests written for each case: what it builds, and how it refuses (file, path, line, fix).
const roots: string[] = [];
afterAll(() => roots.forEach((root) => rmSync(root, { recursive: true, force: true })));

function manifest(files: Record<string, string>): string {
  const root = mkdtempSync(path.join(tmpdir(), 'wildo-manifest-'));
  roots.push(root);
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    writeFileSync(path.join(root, name), text);
  }
  return root;
}

const ROOT = `company:\n  id: shop\n  name: Shop\ncapabilities:\n  - shop.lookup\n`;
const CAPABILITY = `capability:
  id: shop.lookup
  description: "One product."
  effect: read
  input:
    sku:
      type: identifier
  output:
    product:
      type: Product
`;
const RESOURCE = `resource:
  name: shop.Product
  fields:
    name:
      type: text
    price:
      type: money
    photo:
      type: image
      required: false
`;
const BINDING = `binding:
  capabilityId: shop.lookup
  connector:
    type: rest
    rest:
      baseUrl: "\${SHOP_URL}"
      method: GET
      path: /products/{sku}
  response:
    resource: Product
    map:
      name: "$.title"
      price: "$.price"
      photo: "$.image"
  origins:
    images: ["https://img.shop.example"]
`;

function problemsOf(run: () => unknown): string[] {
  try {
    run();
  } catch (error) {
    if (error instanceof DeclarationValidationError)
      return error.problems.map((p) => `${p.declaration} › ${p.path}: ${p.message}`);
    throw error;
  }
  return [];
}

describe('loading a capability manifest', () => {
  it('builds a resource per namespace with one bound operation per capability, which the engine accepts', () => {
    const directory = manifest({
      'capabilities.yaml': ROOT,
      'shop.lookup.capability.yaml': CAPABILITY,
      'shop.Product.resource.yaml': RESOURCE,
      'bindings/shop.lookup.binding.yaml': BINDING,
    });
    const module = loadCapabilityManifest({ directory });
    expect(module.name).toBe('shop');
    const [resource] = module.resources ?? [];
    expect(resource).toMatchObject({
      type: 'shop',
      customOperations: { lookup: { target: 'collection', effect: 'read' } },
    });
    const application = { name: 'app', modules: [module] };
    const compiled = compileApplicationResources(application);
    expect(compiled.problems).toEqual([]);
    const problems: never[] = [];
    expect(compileApplicationBindings(application, compiled.resources, compiled.refusedTypes, problems)).toHaveLength(
      1,
    );
    expect(problems).toEqual([]);
    const output = resource!.customOperations!.lookup!.responseSchema;
    expect(output.safeParse({ product: { name: 'Mug', price: { amount: 9, currency: 'EUR' } } }).success).toBe(true);
  });

  it('turns policies into the operation’s own: authenticated, mapped principals, a rate limit, human approval', () => {
    const directory = manifest({
      'capabilities.yaml': ROOT,
      'shop.lookup.capability.yaml': CAPABILITY.replace(
        'effect: read',
        'effect: irreversible\n  policies: [authenticated, human-approval]',
      ),
      'shop.Product.resource.yaml': RESOURCE,
      'shop.lookup.binding.yaml': BINDING,
      'shop.lookup.policy.yaml': `apiVersion: archstone/v1
kind: Policy
metadata:
  id: buyers
  scope: capability
  capabilityId: shop.lookup
spec:
  allow: ["shop:buyer"]
  deny: ["shop:robot"]
  rateLimit:
    maxInvocations: 3
    windowSeconds: 60
`,
    });
    const module = loadCapabilityManifest({
      directory,
      principals: { 'shop:buyer': { kind: 'person' }, 'shop:robot': { kind: 'machine' } },
    });
    expect(module.resources?.[0]?.operationsConfiguration.lookup?.variants[0]).toMatchObject({
      policies: {
        authenticated: true,
        allow: [{ kind: 'person' }],
        deny: [{ kind: 'machine' }],
        rateLimit: { points: 3, durationSeconds: 60 },
      },
      approval: { required: true },
    });
  });

  it('names the operation of a capability called like a core operation with a suffix', () => {
    expect(operationNameOf('search')).toBe('search-capability');
    expect(operationNameOf('stay-details')).toBe('stay-details');
  });

  it('refuses a misspelled key, naming the file, the path, its line and the fix', () => {
    const directory = manifest({
      'capabilities.yaml': ROOT,
      'shop.lookup.capability.yaml': CAPABILITY.replace('effect: read', 'efect: read'),
      'shop.Product.resource.yaml': RESOURCE,
      'shop.lookup.binding.yaml': BINDING,
    });
    expect(problemsOf(() => loadCapabilityManifest({ directory }))).toEqual([
      expect.stringMatching(/shop\.lookup\.capability\.yaml" › capability\.effect \(line 2\): required: add effect$/),
      expect.stringMatching(
        /shop\.lookup\.capability\.yaml" › capability \(line 2\): unknown key efect: remove or correct it$/,
      ),
    ]);
  });

  it('refuses what does not hold together: an unknown resource, an unlisted or unbound capability, an unmapped principal', () => {
    const directory = manifest({
      'capabilities.yaml': `${ROOT}  - shop.restock\n`,
      'shop.lookup.capability.yaml': CAPABILITY.replace('type: Product', 'type: Produce'),
      'shop.restock.capability.yaml': CAPABILITY.replace('shop.lookup', 'shop.restock').replace(
        'effect: read',
        'effect: write',
      ),
      'shop.orphan.capability.yaml': CAPABILITY.replace('shop.lookup', 'shop.orphan'),
      'shop.Product.resource.yaml': RESOURCE,
      'shop.lookup.binding.yaml': BINDING,
      'shop.restock.binding.yaml': BINDING.replace('shop.lookup', 'shop.restock'),
      'shop.restock.policy.yaml': `apiVersion: archstone/v1
kind: Policy
metadata:
  id: restockers
  scope: capability
  capabilityId: shop.restock
spec:
  allow: ["ops:warehouse"]
`,
    });
    const problems = problemsOf(() => loadCapabilityManifest({ directory })).join('\n');
    expect(problems).toMatch(
      /shop\.lookup\.capability\.yaml" › capability\.output\.product\.type \(line \d+\): no resource named Produce/,
    );
    expect(problems).toMatch(
      /shop\.orphan\.capability\.yaml" › capability\.id \(line 2\): shop\.orphan is not listed in capabilities\.yaml/,
    );
    expect(problems).toMatch(
      /shop\.orphan\.capability\.yaml" › capability\.id \(line 2\): shop\.orphan has no binding/,
    );
    expect(problems).not.toMatch(/found 0|does not fill/);
    expect(problems).toMatch(/"ops:warehouse" names no verified principal: map it in the loader's principals option/);
  });

  it('refuses an image field whose binding declares no origins, and YAML that does not parse', () => {
    const noOrigins = manifest({
      'capabilities.yaml': ROOT,
      'shop.lookup.capability.yaml': CAPABILITY,
      'shop.Product.resource.yaml': RESOURCE,
      'shop.lookup.binding.yaml': BINDING.replace('  origins:\n    images: ["https://img.shop.example"]\n', ''),
    });
    expect(problemsOf(() => loadCapabilityManifest({ directory: noOrigins })).join('\n')).toMatch(
      /photo\.type.*declare where image values may point: origins\.images in the binding/,
    );
    const broken = manifest({ 'capabilities.yaml': 'company:\n  id: shop\n   name: [unclosed\n' });
    expect(problemsOf(() => loadCapabilityManifest({ directory: broken })).join('\n')).toMatch(
      /capabilities\.yaml" › \(line \d+\): not valid YAML/,
    );
  });
});
