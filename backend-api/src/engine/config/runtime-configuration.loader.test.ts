import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { configSource, createTempProject, validConfigFixture, type TempProject } from './config.fixtures.js';
import { GENERATED_FILES } from './config.constants.js';
import { ConfigInvalidError, ConfigLoadError, GenerationStaleError } from './config.errors.js';
import { writeGeneration } from './generation.store.js';
import { loadRuntimeConfiguration, prepareGeneration } from './runtime-configuration.loader.js';

const projects: TempProject[] = [];

async function syncedProject(): Promise<TempProject> {
  const p = await createTempProject(configSource(validConfigFixture()));
  projects.push(p);
  const { generation } = await prepareGeneration(p.rootDir);
  await writeGeneration(p.rootDir, generation);
  return p;
}

afterEach(async () => {
  await Promise.all(projects.splice(0).map((p) => p.cleanup()));
});

describe('loadRuntimeConfiguration', () => {
  it('returns the typed runtime configuration when the generation is fresh', async () => {
    const p = await syncedProject();
    const runtime = await loadRuntimeConfiguration({ rootDir: p.rootDir });
    expect(runtime.application.name).toBe('Fixture Todos');
    expect(runtime.runtime.endPoints.main_backend_api?.publicUrl).toBe('http://localhost:4241');
    expect(runtime.observability.llmObservability).toEqual({ captureContent: false, sampleRate: 1 });
  });

  it('throws the staleness error when the generation is missing', async () => {
    const p = await syncedProject();
    await rm(path.join(p.rootDir, GENERATED_FILES.runtimeJson));
    const failure = loadRuntimeConfiguration({ rootDir: p.rootDir });
    await expect(failure).rejects.toBeInstanceOf(GenerationStaleError);
    await expect(failure).rejects.toThrow(/missing: \.wildo-saas\/generated\/runtime\.json.*Run `wildo config sync`/);
  });

  it('throws the staleness error when the configuration changed since the last sync', async () => {
    const p = await syncedProject();
    const config = validConfigFixture();
    config.application = { name: 'Renamed' };
    await p.writeConfig(configSource(config));
    const failure = loadRuntimeConfiguration({ rootDir: p.rootDir });
    await expect(failure).rejects.toMatchObject({ code: 'GENERATION_STALE', stale: [GENERATED_FILES.runtimeJson] });
  });

  it('throws the staleness error when a generated file was edited by hand', async () => {
    const p = await syncedProject();
    await writeFile(path.join(p.rootDir, GENERATED_FILES.runtimeEnv), 'WILDO_LLM_OBS_CAPTURE_CONTENT=true\n');
    await expect(loadRuntimeConfiguration({ rootDir: p.rootDir })).rejects.toBeInstanceOf(GenerationStaleError);
  });

  it('refuses an invalid configuration with every problem listed', async () => {
    const p = await syncedProject();
    const config = validConfigFixture();
    config.frontendServices = {};
    await p.writeConfig(configSource(config));
    const failure = loadRuntimeConfiguration({ rootDir: p.rootDir });
    await expect(failure).rejects.toBeInstanceOf(ConfigInvalidError);
    await expect(failure).rejects.toMatchObject({ problems: [{ path: 'runtime.endPoints.web' }] });
  });

  it('refuses a configuration that throws while loading', async () => {
    const p = await syncedProject();
    await p.writeConfig("throw new Error('no');\n");
    await expect(loadRuntimeConfiguration({ rootDir: p.rootDir })).rejects.toBeInstanceOf(ConfigLoadError);
  });
});
