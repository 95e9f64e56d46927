import type { EngineCapability } from '../models/engine-capability.js';
import type { CrossFieldProblem } from './config-problem.js';
import {
  ExternalProvider_ExchangeProtocol_Kind,
  RESERVED_EXCHANGE_PROTOCOL_KINDS,
} from './external-provider.models.js';
import { findCatalogProvider, listCatalogProviderNames, type ProviderCatalogEntry } from './provider-catalog.js';
import {
  PROVIDER_SCOPES,
  type ProviderDeclaration,
  type ProviderScope,
  type ProviderScopeName,
} from './providers.schema.js';
import type { SaaSConfig } from './saas-config.schema.js';

type Path = (string | number)[];

/** Whether `engineCapabilities` switches a capability on. */
export function isCapabilityEnabled(
  config: Pick<SaaSConfig, 'engineCapabilities'>,
  capability: EngineCapability,
): boolean {
  return config.engineCapabilities[capability]?.enabled === true;
}

function unknownProviderMessage(name: string): string {
  return `"${name}" is not a provider the framework knows (known: ${listCatalogProviderNames().join(', ')}); fix the name`;
}

function listOrNone(values: readonly string[]): string {
  return values.length === 0 ? 'nothing' : values.join(', ');
}

/** What a catalogue entry offers, in the three vocabularies a declaration uses. */
function offeredBy(entry: ProviderCatalogEntry) {
  return {
    engine: entry.offerings.flatMap((o) => (o.engineCapability ? [o.engineCapability as string] : [])),
    provider: entry.offerings.map((o) => o.providerCapability as string),
    protocols: entry.offerings.flatMap((o) => (o.protocol ? [o.protocol as string] : [])),
  };
}

/** Engine capabilities: served by this vendor, enabled, and backed by the matching provider capability. */
function checkEngineCapabilities(
  config: SaaSConfig,
  name: string,
  entry: ProviderCatalogEntry,
  declared: ProviderDeclaration,
  path: Path,
) {
  const problems: CrossFieldProblem[] = [];
  const offered = offeredBy(entry).engine;
  declared.engineCapabilities.forEach((capability, index) => {
    const at = [...path, 'engineCapabilities', index];
    if (!offered.includes(capability)) {
      problems.push({
        path: at,
        message: `${name} cannot serve ${capability} (it serves ${listOrNone(offered)}); remove it here`,
      });
      return;
    }
    if (!isCapabilityEnabled(config, capability)) {
      const message = `${capability} is not enabled; set engineCapabilities.${capability}.enabled to true or remove it here`;
      problems.push({ path: at, message });
      return;
    }
    const needed = entry.offerings.find((o) => o.engineCapability === capability)?.providerCapability;
    if (needed && !declared.providerCapabilities.includes(needed)) {
      const message = `${capability} is served by ${name}'s ${needed}; add '${needed}' to providerCapabilities`;
      problems.push({ path: [...path, 'providerCapabilities'], message });
    }
  });
  return problems;
}

/** Provider capabilities: served by this vendor, with the protocol they travel over declared. */
function checkProviderCapabilities(
  name: string,
  entry: ProviderCatalogEntry,
  declared: ProviderDeclaration,
  path: Path,
) {
  const problems: CrossFieldProblem[] = [];
  declared.providerCapabilities.forEach((capability, index) => {
    const offering = entry.offerings.find((o) => o.providerCapability === capability);
    if (!offering) {
      const message = `${name} cannot serve ${capability} (it serves ${listOrNone(offeredBy(entry).provider)}); remove it here`;
      problems.push({ path: [...path, 'providerCapabilities', index], message });
    } else if (offering.protocol && !declared.protocols.includes(offering.protocol)) {
      const message = `${capability} is served over ${offering.protocol}; add '${offering.protocol}' to protocols`;
      problems.push({ path: [...path, 'protocols'], message });
    }
  });
  return problems;
}

/** Protocols: not reserved, spoken by this vendor, and (for ACP) backed by execution profiles. */
function checkProtocol(config: SaaSConfig, name: string, entry: ProviderCatalogEntry, protocol: string, at: Path) {
  const kind = (ExternalProvider_ExchangeProtocol_Kind as Record<string, ExternalProvider_ExchangeProtocol_Kind>)[
    protocol
  ];
  if (kind && RESERVED_EXCHANGE_PROTOCOL_KINDS.includes(kind)) {
    return [{ path: at, message: `${protocol} is a reserved protocol name that no provider runs yet; remove it` }];
  }
  const offered = offeredBy(entry).protocols;
  if (!offered.includes(protocol)) {
    return [
      { path: at, message: `${name} does not speak ${protocol} (it speaks ${listOrNone(offered)}); remove it here` },
    ];
  }
  const acp = ExternalProvider_ExchangeProtocol_Kind.AGENT_CLIENT_PROTOCOL;
  const profiles = config.providerConfigurations[name]?.[acp]?.executionProfiles ?? {};
  if (protocol === 'AGENT_CLIENT_PROTOCOL' && Object.keys(profiles).length === 0) {
    const message = `AGENT_CLIENT_PROTOCOL needs an execution profile; declare providerConfigurations.${name}.${acp}.executionProfiles`;
    return [{ path: at, message }];
  }
  return [];
}

/** Checks one declared provider against the enabled capabilities and what the catalogue says it can serve. */
function checkDeclaration(
  config: SaaSConfig,
  name: string,
  entry: ProviderCatalogEntry,
  declared: ProviderDeclaration,
  path: Path,
) {
  return [
    ...checkEngineCapabilities(config, name, entry, declared, path),
    ...checkProviderCapabilities(name, entry, declared, path),
    ...declared.protocols.flatMap((protocol, index) =>
      checkProtocol(config, name, entry, protocol, [...path, 'protocols', index]),
    ),
  ];
}

/** Checks one selection: capability enabled, and every named provider declared in this scope for it. */
function checkSelection(
  config: SaaSConfig,
  scopeName: ProviderScopeName,
  scope: ProviderScope,
  capability: EngineCapability,
  path: Path,
): CrossFieldProblem[] {
  const problems: CrossFieldProblem[] = [];
  const selection = scope.selection[capability];
  if (!selection) return problems;
  if (!isCapabilityEnabled(config, capability)) {
    const message = `${capability} is not enabled; set engineCapabilities.${capability}.enabled to true or remove this selection`;
    problems.push({ path, message });
  }
  const check = (provider: string, at: Path) => {
    const declared = Object.hasOwn(scope.providers, provider) ? scope.providers[provider] : undefined;
    if (!declared) {
      const message = `"${provider}" is not declared in providers.scopes.${scopeName}.providers; declare it there or select a declared provider`;
      problems.push({ path: at, message });
    } else if (!declared.engineCapabilities.includes(capability)) {
      const message = `"${provider}" does not declare ${capability} in the ${scopeName} scope; add it to its engineCapabilities or select another provider`;
      problems.push({ path: at, message });
    }
  };
  check(selection.primary, [...path, 'primary']);
  selection.whenUnavailable.forEach((provider, index) => {
    const at = [...path, 'whenUnavailable', index];
    if (provider !== selection.primary) check(provider, at);
    else problems.push({ path: at, message: `"${provider}" is already the primary; remove it from whenUnavailable` });
  });
  return problems;
}

/** Rules for `providers`: known providers, enabled capabilities, catalogue limits, selections within the scope. */
export function collectProviderProblems(config: SaaSConfig): CrossFieldProblem[] {
  const problems: CrossFieldProblem[] = [];
  for (const scopeName of PROVIDER_SCOPES) {
    const scope = config.providers.scopes[scopeName];
    if (!scope) continue;
    const scopePath = ['providers', 'scopes', scopeName];
    for (const [name, declaration] of Object.entries(scope.providers)) {
      const entry = findCatalogProvider(name);
      const path = [...scopePath, 'providers', name];
      if (!entry) problems.push({ path, message: unknownProviderMessage(name) });
      else problems.push(...checkDeclaration(config, name, entry, declaration, path));
    }
    for (const capability of Object.keys(scope.selection) as EngineCapability[]) {
      problems.push(...checkSelection(config, scopeName, scope, capability, [...scopePath, 'selection', capability]));
    }
  }
  return problems;
}

/** Rules for `providerConfigurations`: known provider, a protocol it speaks, a default profile that exists. */
export function collectProviderConfigurationProblems(config: SaaSConfig): CrossFieldProblem[] {
  const problems: CrossFieldProblem[] = [];
  const acp = ExternalProvider_ExchangeProtocol_Kind.AGENT_CLIENT_PROTOCOL;
  for (const [name, byProtocol] of Object.entries(config.providerConfigurations)) {
    const entry = findCatalogProvider(name);
    if (!entry) {
      problems.push({ path: ['providerConfigurations', name], message: unknownProviderMessage(name) });
      continue;
    }
    const settings = byProtocol[acp];
    if (!settings) continue;
    const path = ['providerConfigurations', name, acp];
    if (!entry.offerings.some((o) => o.protocol === 'AGENT_CLIENT_PROTOCOL')) {
      problems.push({ path, message: `${name} does not speak AGENT_CLIENT_PROTOCOL; remove these settings` });
      continue;
    }
    const refs = Object.keys(settings.executionProfiles);
    if (refs.length === 0) {
      problems.push({
        path: [...path, 'executionProfiles'],
        message: 'declare at least one execution profile or remove these settings',
      });
    }
    const defaultRef = settings.defaultExecutionProfileRef;
    if (defaultRef !== undefined && !refs.includes(defaultRef)) {
      problems.push({
        path: [...path, 'defaultExecutionProfileRef'],
        message: `"${defaultRef}" is not one of executionProfiles (${listOrNone(refs)}); fix the ref or add that profile`,
      });
    }
  }
  return problems;
}
