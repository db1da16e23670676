/**
 * Composition of reference loading and the engine: one loaded, verified Engine per release tag,
 * each loaded at most once per process. Everything above (API, jobs, CLI) asks this module.
 */
import { buildEngine } from './nomenclature/engine.ts';
import type { Engine } from './nomenclature/engine-types.ts';
import { type LoadReleaseOptions, type LoadReport, loadRelease } from './reference/load-release.ts';
import { releaseSourceFromEnv } from './reference/release-source.ts';

export interface ReleaseCatalog {
  /** The default release (HLA_SERVICE_TAG). */
  readonly defaultEngine: Engine;
  readonly defaultTag: string;
  /** Loads (once) and returns the engine of a tag, e.g. `v3.58.0-alpha`. */
  engineFor(tag: string): Promise<Engine>;
  /** Engines already loaded, by tag. */
  loaded(): ReadonlyMap<string, Engine>;
}

export interface CatalogOptions {
  readonly defaultTag: string;
  /** Loads and verifies one release; called at most once per tag. */
  readonly load: (tag: string) => Promise<Engine>;
  /** Tags to load up front (e.g. every key's pinned release), so no request waits for a load. */
  readonly preload?: readonly string[];
}

export async function createReleaseCatalog(options: CatalogOptions): Promise<ReleaseCatalog> {
  const pending = new Map<string, Promise<Engine>>();
  const ready = new Map<string, Engine>();
  const engineFor = (tag: string): Promise<Engine> => {
    let p = pending.get(tag);
    if (!p) {
      p = options.load(tag).then((engine) => {
        ready.set(tag, engine);
        return engine;
      });
      // A failed load may be retried later rather than poisoning the tag forever.
      p.catch(() => pending.delete(tag));
      pending.set(tag, p);
    }
    return p;
  };
  const defaultEngine = await engineFor(options.defaultTag);
  await Promise.all((options.preload ?? []).map(engineFor));
  return {
    defaultEngine,
    defaultTag: options.defaultTag,
    engineFor,
    loaded: () => ready,
  };
}

/** Loads a release from its source (mirror, cache or download) and builds its engine. */
export async function loadEngine(
  source: LoadReleaseOptions,
  onLoaded?: (report: LoadReport) => void,
): Promise<Engine> {
  const { tables, report } = await loadRelease(source);
  onLoaded?.(report);
  return buildEngine(tables);
}

/**
 * The catalog of a service or worker process: the release of HLA_SERVICE_TAG (and the `preload`
 * tags) loaded from the source the environment describes; other tags load on first use from the
 * same source. `onLoaded` receives each release's load report (for the start-up log).
 */
export function catalogFromEnv(
  env: NodeJS.ProcessEnv,
  options: { preload?: readonly string[]; onLoaded?: (report: LoadReport) => void } = {},
): Promise<ReleaseCatalog> {
  const source = releaseSourceFromEnv(env);
  return createReleaseCatalog({
    defaultTag: source.tag,
    preload: options.preload,
    load: (tag) => loadEngine(releaseSourceFromEnv({ ...env, HLA_SERVICE_TAG: tag }), options.onLoaded),
  });
}
