import { readFile } from 'node:fs/promises';
import path from 'node:path';

/** The parts of a V8 `.cpuprofile` the breakdown reads. */
interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string } }[];
  samples: number[];
  timeDeltas: number[];
}

/** Self time per place in the code (a source file of ours, a package, a Node internal, or a V8 pseudo-frame), in µs. */
export type SelfTimes = Map<string, number>;

const REPO_ROOT = path.resolve(new URL('../..', import.meta.url).pathname);

/**
 * Where a frame's time is charged: our files by path (`backend-api/src/engine/http/resource.routes.ts`), a
 * dependency by package (`express`, `@electric-sql/pglite`), Node's internals by module (`node:internal/http`),
 * and V8's pseudo-frames by name (`(garbage collector)`).
 */
export function placeOf(url: string, functionName: string): string {
  if (url === '') return functionName.startsWith('(') ? functionName : '(native)';
  if (url.startsWith('node:')) return url.split('/').slice(0, 3).join('/');
  const file = url.startsWith('file://') ? new URL(url).pathname : url;
  const modules = file.lastIndexOf('/node_modules/');
  if (modules >= 0) {
    const [first, second] = file.slice(modules + '/node_modules/'.length).split('/');
    return first?.startsWith('@') ? `${first}/${second}` : (first ?? file);
  }
  return file.startsWith(REPO_ROOT) ? file.slice(REPO_ROOT.length + 1) : file;
}

/** Reads a `.cpuprofile` and sums the sampled self time per place, idle time left out. */
export async function selfTimesOf(profilePath: string): Promise<SelfTimes> {
  const profile = JSON.parse(await readFile(profilePath, 'utf8')) as CpuProfile;
  const placeById = new Map(
    profile.nodes.map((node) => [node.id, placeOf(node.callFrame.url, node.callFrame.functionName)]),
  );
  const times: SelfTimes = new Map();
  // timeDeltas[i] is the time before sample i; charging it to sample i is how DevTools attributes self time.
  for (let i = 0; i < profile.samples.length; i++) {
    const place = placeById.get(profile.samples[i] as number) ?? '(unknown)';
    if (place === '(idle)') continue;
    times.set(place, (times.get(place) ?? 0) + (profile.timeDeltas[i] ?? 0));
  }
  return times;
}

/** One row of the breakdown: self µs per request on each side and their difference. */
export interface BreakdownRow {
  place: string;
  framework: number;
  bare: number;
  extra: number;
}

/** Self time per request, per place, on both sides, largest extra first. */
export function breakdown(
  framework: SelfTimes,
  frameworkRequests: number,
  bare: SelfTimes,
  bareRequests: number,
): BreakdownRow[] {
  const places = new Set([...framework.keys(), ...bare.keys()]);
  return [...places]
    .map((place) => {
      const f = (framework.get(place) ?? 0) / frameworkRequests;
      const b = (bare.get(place) ?? 0) / bareRequests;
      return { place, framework: f, bare: b, extra: f - b };
    })
    .sort((x, y) => y.extra - x.extra);
}
