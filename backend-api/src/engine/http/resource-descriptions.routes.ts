import { Router } from 'express';
import {
  inputInvalid,
  refuseUnstorableText,
  type ResourceDescriptionJudges,
  type ResourceDescriptions,
} from '../resources/index.js';
import { httpState, param, requirePrincipal, sendData } from '../routing/index.js';

/** Options of {@link createResourceDescriptionsRouter}. */
export interface ResourceDescriptionsRouterOptions {
  descriptions: Pick<ResourceDescriptions, 'forOrganization'>;
  judges: ResourceDescriptionJudges;
}

/**
 * `GET /organizations/:organizationId/resource-descriptions`: the organization's declared resources as the host UI
 * renders them, with what the caller may run (see `ResourceDescriptions`). Takes no parameters; outsiders get
 * not-found, as on every organization path.
 */
export function createResourceDescriptionsRouter(options: ResourceDescriptionsRouterOptions): Router {
  const router = Router();
  router.get('/organizations/:organizationId/resource-descriptions', async (req, res) => {
    const principal = requirePrincipal(res);
    refuseUnstorableText(req.query, '(query)');
    const unknown = Object.keys(req.query as Record<string, unknown>);
    if (unknown.length > 0) throw inputInvalid([{ path: '(query)', expected: 'no query parameters' }]);
    const data = await options.descriptions.forOrganization(options.judges, principal, param(req, 'organizationId'), {
      requestId: httpState(res).requestId,
    });
    sendData(res, 200, data);
  });
  return router;
}
