// The Express application: request context, authentication, the burst throttle, resource routes, every router mounted.
export { createHttpApp, DEFAULT_HTTP_SETTINGS, type HttpSettings } from './http-app.js';
export { SHUTDOWN_STREAM_EVENT, ServingState, type DrainOutcome } from './serving-state.js';
