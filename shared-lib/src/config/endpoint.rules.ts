import { APPLICATION_ENVIRONMENT } from './application-environment.js';
import type { CrossFieldProblem } from './config-problem.js';
import { MAIN_BACKEND_API_ENDPOINT } from './runtime.schema.js';
import type { SaaSConfig } from './saas-config.schema.js';

/**
 * Endpoints and frontend services must match one to one (besides `main_backend_api`): an endpoint
 * without a service is most likely a typo, and a service without an address cannot be linked to.
 */
export function collectEndpointProblems(config: SaaSConfig): CrossFieldProblem[] {
  const problems: CrossFieldProblem[] = [];
  const endPoints = config.runtime.endPoints;
  for (const name of Object.keys(endPoints)) {
    if (name === MAIN_BACKEND_API_ENDPOINT || Object.hasOwn(config.frontendServices, name)) continue;
    problems.push({
      path: ['runtime', 'endPoints', name],
      message: `"${name}" is neither ${MAIN_BACKEND_API_ENDPOINT} nor a frontend service; add frontendServices.${name} or fix the name`,
    });
  }
  for (const name of Object.keys(config.frontendServices)) {
    if (name === MAIN_BACKEND_API_ENDPOINT) {
      problems.push({
        path: ['frontendServices', name],
        message: `"${MAIN_BACKEND_API_ENDPOINT}" is the backend API's endpoint name; give the frontend service another name`,
      });
    } else if (!Object.hasOwn(endPoints, name)) {
      problems.push({
        path: ['frontendServices', name],
        message: `frontend service "${name}" has no public address; add runtime.endPoints.${name}.publicUrl`,
      });
    }
  }
  if (config.application.environment === APPLICATION_ENVIRONMENT.PRODUCTION) {
    for (const [name, endPoint] of Object.entries(endPoints)) {
      if (endPoint.publicUrl.startsWith('https://')) continue;
      problems.push({
        path: ['runtime', 'endPoints', name, 'publicUrl'],
        message: 'a PRODUCTION endpoint must use https; change the URL or the application environment',
      });
    }
  }
  return problems;
}
