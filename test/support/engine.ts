/**
 * Loads the genuine releases for tests, offline from the shared mirror beside the checkout
 * (`../shared/imgthla`, or HLA_SERVICE_DATA_DIR). One load per release per test process.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildEngine } from '../../src/nomenclature/engine.ts';
import type { Engine } from '../../src/nomenclature/engine-types.ts';
import { loadRelease } from '../../src/reference/load-release.ts';
import type { ReleaseTables } from '../../src/reference/tables.ts';
import { createReleaseCatalog, type ReleaseCatalog } from '../../src/releases.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const SHARED_DATA_DIR = process.env.HLA_SERVICE_DATA_DIR ?? path.resolve(repoRoot, '../shared/imgthla');
export const HISTORY_3180 = path.resolve(SHARED_DATA_DIR, 'extra/Allelelist_history.3180.txt');

export type TestVersion = '3.65.0' | '3.58.0';
export const TAG_OF: Record<TestVersion, string> = {
  '3.65.0': 'v3.65.0-alpha',
  '3.58.0': 'v3.58.0-alpha',
};

const tables = new Map<TestVersion, Promise<ReleaseTables>>();
const engines = new Map<TestVersion, Promise<Engine>>();

export function loadTestTables(version: TestVersion = '3.65.0'): Promise<ReleaseTables> {
  let p = tables.get(version);
  if (!p) {
    p = loadRelease({ tag: TAG_OF[version], dataDir: SHARED_DATA_DIR, offline: true }).then((r) => r.tables);
    tables.set(version, p);
  }
  return p;
}

export function loadTestEngine(version: TestVersion = '3.65.0'): Promise<Engine> {
  let p = engines.get(version);
  if (!p) {
    p = loadTestTables(version).then(buildEngine);
    engines.set(version, p);
  }
  return p;
}

/** A catalog whose default is 3.65.0 and which can load 3.58.0 on demand, all offline. */
export async function loadTestCatalog(): Promise<ReleaseCatalog> {
  return createReleaseCatalog({
    defaultTag: TAG_OF['3.65.0'],
    load: async (tag) => {
      const version = (Object.keys(TAG_OF) as TestVersion[]).find((v) => TAG_OF[v] === tag);
      if (version) return loadTestEngine(version);
      const { tables: t } = await loadRelease({ tag, dataDir: SHARED_DATA_DIR, offline: true });
      return buildEngine(t);
    },
  });
}
