// What every router shares: the state of an exchange, its parameters, the success and error envelopes, the burst key.
export { burstKeyOf } from './burst-key.js';
export { errorEnvelope } from './error-envelope.js';
export { httpState, param, requirePrincipal, sendData, type HttpState } from './http-state.js';
export {
  DEFAULT_EVENT_STREAM_SETTINGS,
  EventStreams,
  streamOwnerOf,
  type EventStreamSettings,
  type StreamKeepAlive,
} from './event-streams.js';
