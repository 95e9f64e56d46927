import type { CheckRecorder } from '../support/check-recorder.js';
import type { HttpClient } from '../support/http-client.js';

/** What every section of the REST hostile scenario works with: one client (one status ledger) and one recorder. */
export interface ScenarioContext {
  client: HttpClient;
  recorder: CheckRecorder;
}

/** One section of the scenario: provisions its own disposable tenants, then probes them. */
export interface ScenarioSection {
  title: string;
  run(context: ScenarioContext): Promise<void>;
}
