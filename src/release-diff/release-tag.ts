/**
 * Release designations as people type them. A release is named by its version (`3.65.0`) or by
 * the ANHIG/IMGTHLA git tag it was taken from (`v3.65.0-alpha`); catalogs are keyed by tag.
 */
import type { Engine } from '../nomenclature/engine-types.ts';

const VERSION = /^\d+\.\d+\.\d+$/;

/** `3.58.0` → `v3.58.0-alpha`; anything else is taken to be a tag already. */
export function releaseTag(designation: string): string {
  const trimmed = designation.trim();
  return VERSION.test(trimmed) ? `v${trimmed}-alpha` : trimmed;
}

/** The loaded engine a designation names, by tag or by release version; undefined when none. */
export function findLoaded(loaded: ReadonlyMap<string, Engine>, designation: string): Engine | undefined {
  const trimmed = designation.trim();
  const byTag = loaded.get(trimmed) ?? loaded.get(releaseTag(trimmed));
  if (byTag !== undefined) return byTag;
  for (const engine of loaded.values()) if (engine.release === trimmed || engine.tag === trimmed) return engine;
  return undefined;
}

/** Loaded releases as a reader wants them listed in an error: `3.58.0 (v3.58.0-alpha)`, sorted. */
export function describeLoaded(loaded: ReadonlyMap<string, Engine>): string {
  const labels = [...loaded.values()].map((engine) => `${engine.release} (${engine.tag})`);
  return labels.length === 0 ? 'none' : [...new Set(labels)].sort().join(', ');
}
