// The REST routes of accounts: sign-up, log-in, step-up, organizations and members, invitations.
export { createAuthRouter, createJwksRouter } from './auth.routes.js';
export { LoginThrottle, type LoginAttemptOrigin } from './login-throttle.js';
export { createInvitationsRouter } from './invitations.routes.js';
export { createOrganizationsRouter } from './organizations.routes.js';
