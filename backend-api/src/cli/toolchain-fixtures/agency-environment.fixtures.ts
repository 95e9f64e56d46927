// The agency's environment schema: AGENCY_URL is checked to be an http(s) URL, so doctor counts its scheme checked.
import { z } from 'zod';

export const BackendEnvironmentSchema = z.object({
  AGENCY_URL: z.url({ protocol: /^https?$/ }),
  REPORTING_DSN: z.string().optional(),
});
