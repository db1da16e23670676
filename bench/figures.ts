import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Shared printing for the benchmarks: one readable table, and with `--json` a last line that is
 * exactly one JSON object of the figures.
 */
export type Figure = readonly [key: string, value: number, meaning: string, target: string];

export const wantsJson = process.argv.includes('--json');

function rounded(value: number): number {
  return Math.abs(value) >= 100 ? Math.round(value) : Math.round(value * 100) / 100;
}

export function printFigures(title: string, figures: readonly Figure[], extra: Record<string, unknown> = {}): void {
  const width = Math.max(...figures.map(([key]) => key.length));
  console.log(`\n${title}`);
  for (const [key, value, meaning, target] of figures) {
    const shown = rounded(value).toLocaleString('en-US');
    console.log(`  ${key.padEnd(width)}  ${shown.padStart(14)}  ${meaning}${target ? `  (target ${target})` : ''}`);
  }
  if (wantsJson) {
    const json: Record<string, unknown> = { ...extra };
    for (const [key, value] of figures) json[key] = rounded(value);
    console.log(JSON.stringify(json));
  }
}

/** Deterministic PRNG (mulberry32) so that every run measures the same inputs. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The repository's root folder (benches run from anywhere). */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Release mirror of the benches: HLA_SERVICE_DATA_DIR, else ../shared/imgthla beside the checkout. */
export function benchDataDir(): string {
  return process.env.HLA_SERVICE_DATA_DIR ?? path.resolve(REPO_ROOT, '../shared/imgthla');
}
