/**
 * Release-diff benchmark: loads 3.58.0 and 3.65.0, computes the full verdict diff between them,
 * and reports the time (target < 5 s) and the memory (the diff may add at most what the two
 * loaded releases take), with the summary counts per kind.
 *   npm run bench:diff [-- --json]        (--json: the last line is one JSON object)
 * Data: HLA_SERVICE_DATA_DIR, default ../shared/imgthla beside the checkout (offline).
 * Exit code 1 when a target is missed.
 */
import { performance } from 'node:perf_hooks';
import v8 from 'node:v8';
import vm from 'node:vm';
import { buildEngine } from '../src/nomenclature/engine.ts';
import type { Engine } from '../src/nomenclature/engine-types.ts';
import { loadRelease } from '../src/reference/load-release.ts';
import { diffToCsv } from '../src/release-diff/csv.ts';
import { diffReleases } from '../src/release-diff/diff.ts';
import { CHANGE_KINDS, type ReleaseDiff } from '../src/release-diff/types.ts';
import { benchDataDir, printFigures, wantsJson } from './figures.ts';

const dataDir = benchDataDir();
const FROM_TAG = 'v3.58.0-alpha';
const TO_TAG = 'v3.65.0-alpha';
const DIFF_MS_TARGET = 5_000;

// A full collection before each memory reading, so RSS shows what is kept, not garbage.
v8.setFlagsFromString('--expose-gc');
const collect = vm.runInNewContext('gc') as () => void;
function rssMb(): number {
  collect();
  return process.memoryUsage().rss / 2 ** 20;
}
function heapMb(): number {
  collect();
  return process.memoryUsage().heapUsed / 2 ** 20;
}

async function load(tag: string): Promise<Engine> {
  const { tables } = await loadRelease({ tag, dataDir, offline: true });
  return buildEngine(tables);
}

const rssBaseline = rssMb();
const loadStart = performance.now();
const from = await load(FROM_TAG);
const to = await load(TO_TAG);
const loadMs = performance.now() - loadStart;
const rssBefore = rssMb();

const diffStart = performance.now();
let diff: ReleaseDiff | null = diffReleases(from, to);
const diffMs = performance.now() - diffStart;
const rssAfter = rssMb();
const heapWithDiff = heapMb();

// The same again (the engines' memos now hold every name) and the largest POST the API takes.
const warmStart = performance.now();
diffReleases(from, to);
const warmMs = performance.now() - warmStart;
const union = [...new Set([...from.knownNames(), ...to.knownNames()])];
const customerNames = union.filter((_, k) => k % Math.ceil(union.length / 5_000) === 0).slice(0, 5_000);
const namesStart = performance.now();
diffReleases(from, to, { names: customerNames });
const namesMs = performance.now() - namesStart;
const jsonMb = JSON.stringify(diff).length / 2 ** 20;
const csvMb = diffToCsv(diff).length / 2 ** 20;

const loadedMb = rssBefore - rssBaseline;
const addedMb = rssAfter - rssBefore;
const { summary } = diff;
const { from: fromRelease, to: toRelease } = diff;
// What the diff object itself holds; the rest of the growth is the engines' answer memos,
// which the diff fills with every known name (bounded by the engine).
diff = null;
const diffHeapMb = heapWithDiff - heapMb();

printFigures(
  `release diff ${fromRelease} -> ${toRelease} (one core)`,
  [
    ['load_ms', loadMs, 'load + build both releases from local files', ''],
    ['diff_ms', diffMs, 'full diff, first sight of every name', `< ${DIFF_MS_TARGET}`],
    ['diff_warm_ms', warmMs, 'full diff again (engine memos warm)', ''],
    ['names_5000_ms', namesMs, 'diff restricted to 5,000 names (largest POST)', ''],
    ['rss_baseline_mb', rssBaseline, 'resident memory before loading', ''],
    ['rss_before_mb', rssBefore, 'resident memory with both releases loaded', ''],
    ['rss_after_mb', rssAfter, 'resident memory after the diff (engine memos full)', `<= ${Math.round(rssBefore + loadedMb)}`],
    ['diff_heap_mb', diffHeapMb, 'heap held by the diff object itself', ''],
    ['json_mb', jsonMb, 'size of the JSON diff', ''],
    ['csv_mb', csvMb, 'size of the CSV diff', ''],
    ['names_compared', summary.names_compared, 'names either release knows', ''],
    ['changes', summary.names_changed, 'names listed as changed', ''],
  ],
  {
    from: fromRelease,
    to: toRelease,
    by_kind: summary.by_kind,
    fields_changed: summary.fields_changed,
    status_transitions: summary.status_transitions,
  },
);

if (!wantsJson) {
  console.log('\n  listed under kind (most important kind that changed):');
  for (const kind of CHANGE_KINDS) {
    const listed = String(summary.by_kind[kind]).padStart(7);
    console.log(`    ${kind.padEnd(14)} ${listed}   (changed in ${summary.fields_changed[kind]} names)`);
  }
  console.log('\n  status moves:');
  for (const [move, n] of Object.entries(summary.status_transitions)) {
    console.log(`    ${move.padEnd(28)} ${String(n).padStart(7)}`);
  }
}

const missed: string[] = [];
if (diffMs >= DIFF_MS_TARGET) missed.push(`diff took ${Math.round(diffMs)} ms (target < ${DIFF_MS_TARGET})`);
if (addedMb > loadedMb) {
  missed.push(`the diff added ${Math.round(addedMb)} MB, more than the ${Math.round(loadedMb)} MB of the two releases`);
}
if (missed.length > 0) {
  console.error(`target missed: ${missed.join('; ')}`);
  process.exitCode = 1;
}
