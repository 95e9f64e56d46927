import { createAgencyHandler } from '../../e2e/synthetic-agency/agency-api.js';
import { seedOrganization } from './bench-seed.js';
import { runBenchServerChild } from './bench-server-child.js';

/** What the connectors bench reads: the stay both sides return, and the framework's route to it. */
export interface ConnectorsBenchReady {
  type: 'ready';
  /** `POST` here with `{ stayId }` (the framework, bound to the agency). */
  frameworkUrl: string;
  /** `GET` here (the agency itself). */
  bareUrl: string;
  stayId: string;
  token: string;
}

const STAY_ID = 'ws-1001';

/**
 * The server side of `bench:connectors`: the synthetic agency's REST API and the reference application, whose
 * `hotels.details` is bound to it, in one process; the agency keeps no request log (it would grow without bound) and
 * answers after the response time the runner passes (its second argument, `{ latencyMs }`).
 */
const { latencyMs } = JSON.parse(process.argv[3] ?? '{}') as { latencyMs?: number };

void runBenchServerChild<ConnectorsBenchReady>({
  bareApp: () => createAgencyHandler({ unrecorded: true, ...(latencyMs ? { latencyMs } : {}) }).listener,
  backendOptions: (agencyUrl) => ({ env: { TRAVEL_AGENCY_API_URL: agencyUrl } }),
  ready: async (frameworkUrl, agencyUrl) => {
    const { token, organizationId } = await seedOrganization(frameworkUrl);
    return {
      type: 'ready',
      frameworkUrl: `${frameworkUrl}/api/v1/organizations/${organizationId}/hotels/details`,
      bareUrl: `${agencyUrl}/v1/stays/${STAY_ID}`,
      stayId: STAY_ID,
      token,
    };
  },
});
