// The backend's public URLs: resolved once at start, the source of every absolute URL it writes.
export {
  DEFAULT_PUBLIC_URL,
  declaresFrontend,
  PublicUrls,
  resolvePublicUrls,
  type PublicUrlEnvironment,
  type PublicUrlSource,
  type ResolvedPublicUrls,
} from './public-urls.js';
