/**
 * Engine benchmark: cold load from local files, RSS after load, normalize typings/s on a realistic
 * mix, verify time for a 200,000-character report, lookups/s. One process, one core.
 *   npm run bench:engine [-- --json]
 * Data: HLA_SERVICE_DATA_DIR, default ../shared/imgthla beside the checkout.
 */
import { performance } from 'node:perf_hooks';
import { buildEngine } from '../src/nomenclature/engine.ts';
import { loadRelease } from '../src/reference/load-release.ts';
import { benchDataDir, printFigures, seededRandom } from './figures.ts';

const dataDir = benchDataDir();
const tag = process.env.HLA_SERVICE_TAG ?? 'v3.65.0-alpha';

const t0 = performance.now();
const { tables } = await loadRelease({ tag, dataDir, offline: true });
const engine = buildEngine(tables);
const loadMs = performance.now() - t0;
globalThis.gc?.();
const rssMb = process.memoryUsage().rss / 2 ** 20;

const random = seededRandom(42);
const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)];
const current = tables.alleles.map((a) => a.name);
const twoField = [...new Set(current.map((n) => n.split(':').slice(0, 2).join(':')))];
const legacy = tables.conversions.map((c) => c.legacy);
const deleted = tables.deleted.map((d) => d.name);
const groups = tables.gGroups.flatMap((g) => (g.group ? [g.group] : []));
const garbage = ['A*99:99', 'B*07:02:99:99', 'foo', 'A*2:01', 'DRB1*15:XX:01', 'A*02:01X', '', 'A*02:AB'];

/** What registries and labs send: mostly 2-field and current names, some of every other era. */
function realisticTyping(): string {
  const r = random();
  if (r < 0.35) return pick(twoField);
  if (r < 0.6) return pick(current);
  if (r < 0.7) return pick(legacy);
  if (r < 0.75) return pick(deleted);
  if (r < 0.82) return `${pick(twoField).split(':')[0]}:XX`;
  if (r < 0.87) return pick(groups);
  if (r < 0.92) return `HLA-${pick(twoField)}`;
  return pick(garbage);
}

const typings = Array.from({ length: 5_000 }, realisticTyping);

function rate(run: () => number, minMs = 1_000): number {
  let done = 0;
  const start = performance.now();
  while (performance.now() - start < minMs) done += run();
  return done / ((performance.now() - start) / 1000);
}

// First sight of every name the release knows: no memo can help (distinct strings).
const known = engine.knownNames();
const coldStart = performance.now();
for (const name of known) engine.normalizeOne(name);
const normalizeColdPerS = known.length / ((performance.now() - coldStart) / 1000);

// Warm up, then measure: a registry upload repeats names, and repeats are memoized.
engine.normalize(typings);
const normalizePerS = rate(() => engine.normalize(typings).rows.length);

// First lookup of every known name (a fresh lookup builds its facts), then repeats (memoized).
const lookupColdStart = performance.now();
for (const name of known) engine.lookup(name);
const lookupColdPerS = known.length / ((performance.now() - lookupColdStart) / 1000);

const lookupNames = Array.from({ length: 5_000 }, realisticTyping);
for (const n of lookupNames) engine.lookup(n);
const lookupPerS = rate(() => {
  for (const n of lookupNames) engine.lookup(n);
  return lookupNames.length;
});

/** A long lab report: prose, tables of typings of every kind, separators. */
function report(chars: number): string {
  const parts: string[] = [];
  let length = 0;
  const prose = ['Patient typing reported as', 'donor confirmed', 'see table', '; high resolution:', '\n'];
  while (length < chars) {
    const piece = random() < 0.4 ? pick(prose) : `${realisticTyping()}${random() < 0.3 ? '/' : ', '}`;
    parts.push(piece);
    length += piece.length + 1;
  }
  return parts.join(' ').slice(0, chars);
}
const text = report(200_000);
engine.verify(text);
const verifyRuns: number[] = [];
for (let i = 0; i < 30; i++) {
  const fresh = report(200_000); // new tokens each run: measures the scan and the classification
  const start = performance.now();
  engine.verify(i % 2 === 0 ? text : fresh);
  verifyRuns.push(performance.now() - start);
}
verifyRuns.sort((a, b) => a - b);
const verifyMs = verifyRuns[Math.floor(verifyRuns.length / 2)];

printFigures('engine (3.65.0, one core)', [
  ['load_ms', loadMs, 'cold load + engine build from local files', '< 1500'],
  ['rss_mb', rssMb, 'resident memory after load', '< 250'],
  ['normalize_per_s', normalizePerS, 'typings/s, realistic mix (5,000 typings, repeated)', '>= 1000000'],
  ['normalize_cold_per_s', normalizeColdPerS, 'typings/s, first sight of every known name', ''],
  ['verify_200k_ms', verifyMs, 'median verify of a 200,000-char report', '< 20'],
  ['lookup_per_s', lookupPerS, 'allele lookups/s, realistic mix (repeated)', ''],
  ['lookup_cold_per_s', lookupColdPerS, 'allele lookups/s, first sight of every known name', ''],
]);
