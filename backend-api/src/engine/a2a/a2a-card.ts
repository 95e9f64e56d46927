import { ENGINE_VERSION } from '../config/index.js';
import type { A2aAgent } from './a2a-agents.js';
import { A2A_PROTOCOL_VERSIONS } from './a2a-protocol.js';

/** Where the card's security schemes send a client for a token. */
export interface A2aCardAuthorization {
  issuer: string;
  authorizationEndpoint: string;
  tokenEndpoint: string;
}

const MODES = ['text/plain', 'application/json'];
const SCOPES = { openid: 'Identify the person who delegates.' };

/** What both dialects' cards say alike: name, description, version, modes, skills, how to get a token. */
function commonCard(agent: A2aAgent, auth: A2aCardAuthorization) {
  return {
    name: agent.name,
    description: agent.description,
    version: ENGINE_VERSION,
    defaultInputModes: MODES,
    defaultOutputModes: ['text/plain'],
    skills: agent.skills.map((skill) => ({
      id: skill.id,
      name: skill.name,
      description: skill.description,
      tags: ['actor-system'],
    })),
    oauth2: {
      description: `Bearer tokens from ${auth.issuer} for the audience ${agent.audience}.`,
      oauth2MetadataUrl: `${auth.issuer}/.well-known/oauth-authorization-server`,
    },
  };
}

/**
 * The 0.2.5/0.3 agent card (`url`, `protocolVersion`, `securitySchemes` with a `type`), which also lists the 1.0
 * interface in `supportedInterfaces` so one document serves clients of both dialects.
 */
export function legacyAgentCard(agent: A2aAgent, auth: A2aCardAuthorization): Record<string, unknown> {
  const { oauth2, ...common } = commonCard(agent, auth);
  return {
    protocolVersion: A2A_PROTOCOL_VERSIONS.legacy[0],
    ...common,
    url: agent.audience,
    preferredTransport: 'JSONRPC',
    capabilities: { streaming: true, pushNotifications: true, stateTransitionHistory: false },
    securitySchemes: {
      oauth2: {
        type: 'oauth2',
        ...oauth2,
        flows: {
          authorizationCode: {
            authorizationUrl: auth.authorizationEndpoint,
            tokenUrl: auth.tokenEndpoint,
            scopes: SCOPES,
          },
          clientCredentials: { tokenUrl: auth.tokenEndpoint, scopes: {} },
        },
      },
    },
    security: [{ oauth2: [] }],
    supportedInterfaces: interfaces(agent),
    additionalInterfaces: [{ url: agent.audience, transport: 'JSONRPC' }],
  };
}

/** The 1.0 agent card (protobuf JSON: `supportedInterfaces`, security schemes by oneof name). */
export function v1AgentCard(agent: A2aAgent, auth: A2aCardAuthorization): Record<string, unknown> {
  const { oauth2, ...common } = commonCard(agent, auth);
  return {
    ...common,
    supportedInterfaces: interfaces(agent),
    capabilities: { streaming: true, pushNotifications: true },
    securitySchemes: {
      oauth2: {
        oauth2SecurityScheme: {
          ...oauth2,
          flows: {
            authorizationCode: {
              authorizationUrl: auth.authorizationEndpoint,
              tokenUrl: auth.tokenEndpoint,
              scopes: SCOPES,
              pkceRequired: true,
            },
          },
        },
      },
    },
    securityRequirements: [{ schemes: { oauth2: { list: [] } } }],
  };
}

function interfaces(agent: A2aAgent): Record<string, string>[] {
  return [
    { url: agent.audience, protocolBinding: 'JSONRPC', protocolVersion: A2A_PROTOCOL_VERSIONS.v1[0] ?? '1.0' },
    { url: agent.audience, protocolBinding: 'JSONRPC', protocolVersion: A2A_PROTOCOL_VERSIONS.legacy[0] ?? '0.3.0' },
  ];
}
