/** The built host UI (index.html and its assets), for the backend to serve: `createWildoServer(app, { frontendDist })`. */
export declare const HOST_UI_DIRECTORY: string;
