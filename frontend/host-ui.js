import { fileURLToPath } from 'node:url';

/** The built host UI (index.html and its assets), for the backend to serve: `createWildoServer(app, { frontendDist })`. */
export const HOST_UI_DIRECTORY = fileURLToPath(new URL('./dist', import.meta.url));
