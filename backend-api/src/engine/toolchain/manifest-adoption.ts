import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseDocument, type Document } from 'yaml';
import type { RecordedField } from './contracts.js';

// Adopting a field the backend gained: a proposed declaration in the manifest (a resource field and its mapping),
// written only when a person said yes and gave a description. Comments and layout of the YAML files are kept.

/** A gained field and the declaration proposed for it. */
export interface AdoptionProposal {
  capability: string;
  /** The gained path in the answer (`stays[].wifi`). */
  path: string;
  /** The field it becomes on the resource (`wifi`), its manifest type and its mapping (`$.wifi`). */
  field: string;
  type: string;
  mapping: string;
  /** The resource document it is added to (`wanderlust.Availability`) and the two files written. */
  resource: string;
  resourceFile: string;
  bindingFile: string;
}

/** A gained field that cannot be adopted automatically, and why. */
export interface AdoptionRefusal {
  capability: string;
  path: string;
  reason: string;
}

const MANIFEST_TYPES: Record<string, string> = { number: 'quantity', string: 'text', boolean: 'boolean' };
const FIELD_NAME = /^[A-Za-z][A-Za-z0-9_]*$/;

interface ManifestFile {
  file: string;
  doc: Document;
}

async function manifestFiles(directory: string): Promise<ManifestFile[]> {
  const files: ManifestFile[] = [];
  for (const entry of await readdir(directory, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !/\.ya?ml$/.test(entry.name)) continue;
    const file = path.join(entry.parentPath, entry.name);
    files.push({ file, doc: parseDocument(await readFile(file, 'utf8')) });
  }
  return files;
}

/** The answer path prefix of a binding's collection (`$.stays[*]` -> `stays[]`, `$[*]` -> `[]`). */
function collectionPrefix(collection: unknown): string {
  if (typeof collection !== 'string') return '';
  return collection.replace(/^\$\.?/, '').replace(/\[\*\]/g, '[]');
}

/** The declaration proposed for each gained field of a manifest-bound capability (or why there is none). */
export async function proposeAdoptions(
  directory: string,
  gained: readonly { capability: string; fields: readonly RecordedField[] }[],
): Promise<{ proposals: AdoptionProposal[]; refusals: AdoptionRefusal[] }> {
  const files = await manifestFiles(directory);
  const proposals: AdoptionProposal[] = [];
  const refusals: AdoptionRefusal[] = [];
  for (const { capability, fields } of gained) {
    const binding = files.find((f) => f.doc.getIn(['binding', 'capabilityId']) === capability);
    const resourceName = binding?.doc.getIn(['binding', 'response', 'resource']);
    const namespace = capability.split('.')[0];
    const qualified = typeof resourceName === 'string' ? `${namespace}.${resourceName}` : undefined;
    const resource = files.find((f) => f.doc.getIn(['resource', 'name']) === qualified);
    for (const gainedField of fields) {
      const refuse = (reason: string) => refusals.push({ capability, path: gainedField.path, reason });
      if (!binding || !resource || !qualified) {
        refuse('its binding or resource is not a manifest document in this directory: declare it by hand');
        continue;
      }
      const prefix = collectionPrefix(binding.doc.getIn(['binding', 'response', 'collection']));
      const relative = prefix
        ? gainedField.path.slice(prefix.length + (prefix.endsWith('[]') ? 1 : 0))
        : gainedField.path;
      if (prefix && !gainedField.path.startsWith(prefix)) {
        refuse('it lies outside the mapped collection');
        continue;
      }
      const type = MANIFEST_TYPES[gainedField.type];
      if (!FIELD_NAME.test(relative) || type === undefined) {
        refuse(`a nested or ${gainedField.type} value: declare it by hand`);
        continue;
      }
      proposals.push({
        capability,
        path: gainedField.path,
        field: relative,
        type,
        mapping: `$.${relative}`,
        resource: qualified,
        resourceFile: resource.file,
        bindingFile: binding.file,
      });
    }
  }
  return { proposals, refusals };
}

/** Writes the accepted proposals (each with the description a person gave) into the manifest's files. */
export async function adoptFields(
  accepted: readonly { proposal: AdoptionProposal; description: string }[],
): Promise<string[]> {
  const docs = new Map<string, Document>();
  const docOf = async (file: string) => {
    let doc = docs.get(file);
    if (!doc) docs.set(file, (doc = parseDocument(await readFile(file, 'utf8'))));
    return doc;
  };
  for (const { proposal, description } of accepted) {
    (await docOf(proposal.bindingFile)).setIn(['binding', 'response', 'map', proposal.field], proposal.mapping);
    (await docOf(proposal.resourceFile)).setIn(['resource', 'fields', proposal.field], {
      type: proposal.type,
      required: false,
      description,
    });
  }
  for (const [file, doc] of docs) await writeFile(file, doc.toString());
  return [...docs.keys()];
}
