import type { FlowActorSystem_InitializationFactoryMap, FlowsActors_Agent } from '@wildo/shared-lib';
import type { ResourcesApplication, ResourcesModule } from '../../resources/index.js';
import type { FunctionTool } from '../tools/index.js';

/** What a module contributes to flows and actors: agents, function tools and actor systems (validated at start). */
export interface FlowsActorsContribution {
  agents?: readonly FlowsActors_Agent[];
  functionTools?: readonly FunctionTool[];
  flowActorSystemsFactoryMap?: FlowActorSystem_InitializationFactoryMap;
}

/** A module as the agents read it: its resources (which tools reach) and its flows and actors. */
export interface FlowsActorsModule extends ResourcesModule {
  flowsActors?: FlowsActorsContribution;
}

/** An application as the agents read it. */
export interface FlowsActorsApplication extends ResourcesApplication {
  modules: readonly FlowsActorsModule[];
}
