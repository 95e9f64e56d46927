/**
 * Who owns a resource's records: the application as a whole, one organization (tenant), or one user.
 * The scope decides the REST path and the tenant filter the persistence layer applies to every query.
 */
export enum ResourcePrimaryScope {
  APPLICATION = 'APPLICATION',
  ORGANIZATIONS = 'ORGANIZATIONS',
  USER = 'USER',
}
