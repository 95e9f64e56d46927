import { referenceApplication } from './modules/index.js';
import { createWildoServer } from '@wildo/backend-api/server';

// Starts the reference application on the generated configuration and the process environment.
await createWildoServer(referenceApplication);
