import { governedOutputRegistry, type GovernedOutput, type ResourceOperationPolicies } from '@wildo/shared-lib';
import type { z } from 'zod';
import { defOf } from '../resources/schema/index.js';
import { normalizeOrigin } from './origins.js';

/** A governance problem in a declaration: a path into it and what to change. */
export interface GovernanceProblem {
  path: string;
  message: string;
}

const LABEL: Record<GovernedOutput['kind'], string> = { image: 'an image', 'web-page': 'a web page', html: 'an HTML' };

function originProblems(output: GovernedOutput, path: string): GovernanceProblem[] {
  const lists: [string, readonly string[]][] =
    output.kind === 'html'
      ? [
          ['origins.images', output.origins.images],
          ['origins.pages', output.origins.pages],
        ]
      : [['origins', output.origins]];
  const problems: GovernanceProblem[] = [];
  for (const [name, origins] of lists) {
    origins.forEach((origin, i) => {
      const checked = normalizeOrigin(origin);
      if ('problem' in checked) problems.push({ path: `${path}.${name}[${i}]`, message: checked.problem });
    });
  }
  if (output.kind !== 'html' && output.origins.length === 0) {
    problems.push({
      path: `${path}.origins`,
      message: `declare at least one origin ${LABEL[output.kind]} value may lie on, such as https://images.example.com`,
    });
  }
  return problems;
}

/**
 * Checks the image, web-page and HTML outputs of a schema (`z_image`, `z_webPage`, `z_html`): every declared origin
 * is an https origin, and every such value sits where it can be withheld without breaking the schema (an optional
 * field, a list item, a record value), so a result that loses one still satisfies what clients were told.
 */
export function auditGovernedOutputs(schema: z.ZodType, basePath = ''): GovernanceProblem[] {
  const problems: GovernanceProblem[] = [];
  const seen = new Set<z.ZodType>();
  const visit = (node: z.ZodType, path: string, omittable: boolean): void => {
    if (seen.has(node)) return;
    seen.add(node);
    const def = defOf(node);
    const at = path || '(root)';
    switch (def.type) {
      case 'string': {
        const governed = governedOutputRegistry.get(node);
        if (!governed) return;
        problems.push(...originProblems(governed, at));
        if (!omittable) {
          problems.push({
            path: at,
            message: `${LABEL[governed.kind]} value can be withheld, so it must be optional (add .optional()) or an item of a list`,
          });
        }
        return;
      }
      case 'object':
        for (const [key, child] of Object.entries(def.shape ?? {})) visit(child, path ? `${path}.${key}` : key, false);
        return;
      case 'array':
        if (def.element) visit(def.element, `${path}[]`, true);
        return;
      case 'record':
        if (def.valueType) visit(def.valueType, `${path}{}`, true);
        return;
      case 'tuple':
        def.items?.forEach((item, i) => visit(item, `${path}[${i}]`, false));
        if (def.rest) visit(def.rest, `${path}[]`, false);
        return;
      case 'union':
        def.options?.forEach((option) => visit(option, path, omittable));
        return;
      case 'intersection':
        if (def.left) visit(def.left, path, omittable);
        if (def.right) visit(def.right, path, omittable);
        return;
      case 'lazy':
        if (def.getter) visit(def.getter(), path, omittable);
        return;
      case 'optional':
      case 'default':
      case 'prefault':
        if (def.innerType) visit(def.innerType, path, true);
        return;
      case 'nonoptional':
        if (def.innerType) visit(def.innerType, path, false);
        return;
      default:
        if (def.innerType) visit(def.innerType, path, omittable);
    }
  };
  visit(schema, basePath, false);
  return problems;
}

/** Checks a variant's policies against the roles its scope can hold: a role matcher that can never match is a mistake. */
export function auditPolicies(
  policies: ResourceOperationPolicies | undefined,
  scopeRoles: readonly string[],
): GovernanceProblem[] {
  const problems: GovernanceProblem[] = [];
  for (const list of ['allow', 'deny'] as const) {
    policies?.[list]?.forEach((matcher, i) => {
      if (matcher.kind === 'role' && !scopeRoles.includes(matcher.role)) {
        problems.push({
          path: `policies.${list}[${i}].role`,
          message: `${matcher.role} can never match here; use one of ${scopeRoles.join(', ')}`,
        });
      }
    });
  }
  return problems;
}
