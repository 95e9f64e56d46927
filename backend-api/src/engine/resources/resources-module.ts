import type { AnyResourceDeclaration, ResourceServerInstance } from '@wildo/shared-lib';
import type { ModuleBase } from '../container/index.js';
import type { ResourceCustomServiceImplementation } from './custom-service.js';

/** A module as the dispatch path reads it: its resources and their service code. */
export interface ResourcesModule extends ModuleBase {
  resources?: readonly AnyResourceDeclaration[];
  customServiceImplementations?: readonly ResourceCustomServiceImplementation[];
}

/** An application as the dispatch path reads it: its module registry and the resource servers it publishes. */
export interface ResourcesApplication {
  name: string;
  modules: readonly ResourcesModule[];
  resourceServerInstances?: readonly ResourceServerInstance[];
}
