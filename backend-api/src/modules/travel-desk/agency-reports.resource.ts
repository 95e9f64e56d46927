// The agency's reporting database, fronted instead of stored: one SELECT, read under row-level security. The
// statement names no tenant: the caller's organization reaches the database as a transaction-scoped setting
// (`wildo.organization_id`) that the table's policy reads.
import { CORE_ORG_ROLES, defineResource, ResourceOperationVariantType, ResourcePrimaryScope } from '@wildo/shared-lib';
import { z } from 'zod';
import { bindResource, sqlConnector } from '@wildo/backend-api';
import { CityBookingsOutput, MonthInput } from './travel-desk.schemas.js';

/** Reports over the agency's bookings, each the caller's own organization's only. */
export const agencyReports = defineResource({
  type: 'agency-reports',
  displayName: 'Agency reports',
  primaryScope: ResourcePrimaryScope.ORGANIZATIONS,
  schema: z.object({ city: z.string(), bookings: z.number() }),
  customOperations: {
    'bookings-by-city': {
      target: 'collection',
      requestSchema: MonthInput,
      responseSchema: CityBookingsOutput,
      effect: 'read',
      description: "How many bookings the caller's organization took in each city in one month.",
    },
  },
  operationsConfiguration: {
    'bookings-by-city': {
      variants: [
        {
          variantType: ResourceOperationVariantType.API_CALL,
          roles: [CORE_ORG_ROLES.ORG_MEMBER],
          mcp: { exposed: true, servers: ['travel-desk'] },
        },
      ],
    },
  },
});

/** The reporting database; its connection string comes from the environment (unset: 503). */
const reporting = sqlConnector({ name: 'agency-reporting', dsn: '${TRAVEL_AGENCY_REPORTING_DSN}' });

/** `bookings-by-city`, bound to its SELECT. */
export const agencyReportsBinding = bindResource(agencyReports, {
  'bookings-by-city': {
    connector: reporting,
    sql: 'SELECT city, bookings FROM bookings_by_city_v WHERE month = $1 ORDER BY bookings DESC, city',
    params: ['month'],
    response: { into: 'cities', collection: '$[*]', map: { city: '$.city', bookings: '$.bookings' } },
  },
});
