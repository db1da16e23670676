/**
 * Match throughput on one core:
 * `node --import tsx bench/match.ts [--json] [--pairs=N] [--seconds=S] [--seed=N] [--uniform]`
 * (`npm run bench:match`).
 *
 * Loads the release offline from the local mirror (HLA_SERVICE_DATA_DIR, default
 * ../shared/imgthla beside the repository), builds realistic 8/8 and 12/12 request pairs drawn
 * deterministically from the release (mostly common 2-field names, plus full names, 3-field names,
 * G groups, lg names, legacy colon-less names, XX codes and deleted names; donors share most
 * alleles with their recipient under another spelling), warms up, then times `match()` —
 * validation included, as the API calls it. With `--json` the last line is one JSON object whose
 * `pairs_per_s` is the lower of the two frameworks (CPU time of the one thread), followed by the
 * figures of each framework.
 */
import { performance } from 'node:perf_hooks';
import { match } from '../src/matching/match.ts';
import type { Framework, MatchRequest } from '../src/matching/types.ts';
import { buildEngine } from '../src/nomenclature/engine.ts';
import type { Engine } from '../src/nomenclature/engine-types.ts';
import { loadRelease } from '../src/reference/load-release.ts';
import { DEFAULT_TAG } from '../src/reference/release-source.ts';
import type { ReleaseTables } from '../src/reference/tables.ts';
import { benchDataDir, seededRandom } from './figures.ts';

const BENCH_FRAMEWORKS = ['8/8', '12/12'] as const satisfies readonly Framework[];
const LOCI_OF: Record<(typeof BENCH_FRAMEWORKS)[number], readonly string[]> = {
  '8/8': ['A', 'B', 'C', 'DRB1'],
  '12/12': ['A', 'B', 'C', 'DRB1', 'DQB1', 'DPB1'],
};

/** Pairs parsed and matched together: about what a bulk job or a busy server has in hand at once. */
const BATCH = 250;

interface Options {
  json: boolean;
  pairs: number;
  seconds: number;
  seed: number;
  uniform: boolean;
}

function parseOptions(argv: readonly string[]): Options {
  const value = (flag: string, fallback: number): number => {
    const arg = argv.find((a) => a.startsWith(`--${flag}=`));
    const parsed = arg === undefined ? fallback : Number(arg.slice(flag.length + 3));
    if (!Number.isFinite(parsed) || parsed <= 0) throw new Error(`--${flag} must be a positive number`);
    return parsed;
  };
  return {
    json: argv.includes('--json'),
    pairs: Math.floor(value('pairs', 20_000)),
    seconds: value('seconds', 2),
    seed: Math.floor(value('seed', 365)),
    uniform: argv.includes('--uniform'),
  };
}


/** Names of one locus, from the release tables, in the shapes typing reports use. */
interface LocusNames {
  /** 2-field names in Allelelist order; `common` = the low-numbered ones (`A*02:01`, not `A*02:1045`). */
  twoField: string[];
  common: string[];
  /** 2-field name → current full names under it. */
  full: Map<string, string[]>;
  /** Full name → its G group. */
  gGroup: Map<string, string>;
  /** 2-field name → pre-2010 spellings of alleles under it (`A*0201`, `Cw*0702`). */
  legacy: Map<string, string[]>;
  deleted: string[];
}

function locusNames(tables: ReleaseTables, locus: string): LocusNames {
  const prefix = `${locus}*`;
  const full = new Map<string, string[]>();
  for (const { name } of tables.alleles) {
    if (!name.startsWith(prefix)) continue;
    const fields = name.slice(prefix.length).replace(/[A-Z]$/, '').split(':');
    const twoField = `${prefix}${fields[0]}:${fields[1]}`;
    const list = full.get(twoField);
    if (list === undefined) full.set(twoField, [name]);
    else list.push(name);
  }
  const twoField = [...full.keys()];
  // Frequent alleles have old, low numbers: a 2-digit first field and a second field ≤ 05.
  const common = twoField.filter((name) => {
    const [first, second] = name.slice(prefix.length).split(':');
    return first.length === 2 && Number(second) <= 5;
  });
  const gGroup = new Map<string, string>();
  for (const row of tables.gGroups) {
    if (row.locus !== locus || row.group === null) continue;
    for (const member of row.members) gGroup.set(member, row.group);
  }
  const legacy = new Map<string, string[]>();
  for (const row of tables.conversions) {
    if (row.current === null || !row.current.startsWith(prefix)) continue;
    const twoFieldName = row.current.split(':').slice(0, 2).join(':');
    const list = legacy.get(twoFieldName);
    if (list === undefined) legacy.set(twoFieldName, [row.legacy]);
    else list.push(row.legacy);
  }
  const deleted = tables.deleted.filter((row) => row.name.startsWith(prefix)).map((row) => row.name);
  return { twoField, common, full, gGroup, legacy, deleted };
}

class PairMaker {
  private readonly loci = new Map<string, LocusNames>();

  constructor(
    tables: ReleaseTables,
    private readonly random: () => number,
    private readonly uniform: boolean,
  ) {
    for (const locus of LOCI_OF['12/12']) {
      const names = locusNames(tables, locus);
      // Which common alleles are the frequent ones: a seeded shuffle, so no locus favours its first names.
      for (let i = names.common.length - 1; i > 0; i--) {
        const j = Math.floor(this.random() * (i + 1));
        [names.common[i], names.common[j]] = [names.common[j], names.common[i]];
      }
      this.loci.set(locus, names);
    }
  }

  private pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.random() * items.length)];
  }

  /**
   * An allele as a population carries it: 95% common 2-field names with Zipf-like frequencies
   * (rank k drawn with probability ∝ 1/k, as allele frequency tables look), 5% any 2-field name.
   * `--uniform` draws the common names uniformly instead: many more distinct names, a colder cache.
   */
  private allele(locus: string): string {
    const names = this.loci.get(locus)!;
    if (this.random() >= 0.95) return this.pick(names.twoField);
    if (this.uniform) return this.pick(names.common);
    const rank = Math.floor(Math.pow(names.common.length + 1, this.random())) - 1;
    return names.common[Math.min(rank, names.common.length - 1)];
  }

  /**
   * One reported spelling of `twoField`, in a mix of resolutions as registries and papers report
   * them: mostly 2-field, then full names, 3-field, G groups, legacy and lg spellings, prefixed
   * names, and a few XX codes and deleted names (which may stand for another allele or none).
   */
  private spell(locus: string, twoField: string): string {
    const names = this.loci.get(locus)!;
    const all = names.full.get(twoField)!;
    // Reported full names are mostly the first, most frequent allele (`A*02:01:01:01`).
    const full = this.random() < 0.7 ? all.slice(0, 1) : all;
    const u = this.random();
    if (u < 0.55) return twoField;
    if (u < 0.69) return this.pick(full);
    if (u < 0.77) return this.pick(full).split(':').slice(0, 3).join(':');
    if (u < 0.82) return names.gGroup.get(this.pick(full)) ?? twoField;
    if (u < 0.85) return `${twoField}g`;
    if (u < 0.9) {
      const legacy = names.legacy.get(twoField);
      return legacy === undefined ? twoField : this.pick(legacy);
    }
    if (u < 0.94) return `HLA-${twoField}`;
    if (u < 0.97) return locus === 'C' ? `Cw${twoField.slice(1)}` : twoField;
    if (u < 0.99) return `${twoField.split(':')[0]}:XX`;
    return names.deleted.length > 0 ? this.pick(names.deleted) : twoField;
  }

  pair(framework: (typeof BENCH_FRAMEWORKS)[number]): MatchRequest {
    const recipient: Record<string, string[]> = {};
    const donor: Record<string, string[]> = {};
    for (const locus of LOCI_OF[framework]) {
      const alleles = [this.allele(locus), this.allele(locus)];
      // A searched donor shares most alleles with the recipient, usually spelt differently.
      const donorAlleles = alleles.map((allele) => (this.random() < 0.8 ? allele : this.allele(locus)));
      recipient[locus] = alleles.map((allele) => this.spell(locus, allele));
      donor[locus] = donorAlleles.map((allele) => this.spell(locus, allele));
    }
    return { framework, recipient, donor };
  }
}

interface Measure {
  /** Pairs per second of CPU time of this process: one core, whatever else the machine runs. */
  pairsPerS: number;
  /** Pairs per second of wall-clock time (equal to the above on an idle machine). */
  wallPairsPerS: number;
  /** First pass over the pairs, names not yet seen by the engine nor by matching (CPU time). */
  coldPairsPerS: number;
  runs: number;
  /** Number of pairs per count value, to show the mix is realistic. */
  counts: Map<string, number>;
  potentialShare: number;
}

function cpuMs(since: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
}

/**
 * Requests are kept as JSON in batches and parsed just before they are matched, as the API does:
 * fresh flat strings, hot in the CPU cache, never seen by a string hash. Only matching is timed.
 */
function measure(engine: Engine, batches: readonly string[], seconds: number): Measure {
  const counts = new Map<string, number>();
  let potential = 0;
  let pairs = 0;
  let coldMs = 0;
  for (const json of batches) {
    const requests = JSON.parse(json) as MatchRequest[];
    const start = process.cpuUsage();
    const responses = requests.map((request) => match(engine, request));
    coldMs += cpuMs(start);
    for (const response of responses) {
      counts.set(response.count, (counts.get(response.count) ?? 0) + 1);
      if (response.flags.includes('resolution_insufficient')) potential++;
    }
    pairs += requests.length;
  }
  const pass = (): { done: number; cpu: number; wall: number; sink: number } => {
    let done = 0;
    let cpu = 0;
    let wall = 0;
    let sink = 0;
    for (const json of batches) {
      const requests = JSON.parse(json) as MatchRequest[];
      const wallStart = performance.now();
      const cpuStart = process.cpuUsage();
      for (let i = 0; i < requests.length; i++) sink += match(engine, requests[i]).hvg_mismatches;
      cpu += cpuMs(cpuStart);
      wall += performance.now() - wallStart;
      done += requests.length;
    }
    return { done, cpu, wall, sink };
  };
  for (let i = 0; i < 3; i++) pass(); // warm-up
  let done = 0;
  let cpu = 0;
  let wall = 0;
  let sink = 0;
  const start = performance.now();
  while (performance.now() - start < seconds * 1000) {
    const run = pass();
    done += run.done;
    cpu += run.cpu;
    wall += run.wall;
    sink += run.sink;
  }
  if (sink < 0) console.log(sink); // keeps the results alive
  return {
    pairsPerS: Math.round((done / cpu) * 1000),
    wallPairsPerS: Math.round((done / wall) * 1000),
    coldPairsPerS: Math.round((pairs / coldMs) * 1000),
    runs: done,
    counts,
    potentialShare: potential / pairs,
  };
}

function topCounts(counts: Map<string, number>, total: number): string {
  return [...counts.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 4)
    .map(([count, n]) => `${count} ${Math.round((n / total) * 100)}%`)
    .join(', ');
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  const dataDir = benchDataDir();
  const tag = process.env.HLA_SERVICE_TAG ?? DEFAULT_TAG;

  const loadStart = performance.now();
  const { tables } = await loadRelease({ tag, dataDir, offline: true });
  const engine = buildEngine(tables);
  const loadMs = performance.now() - loadStart;

  const maker = new PairMaker(tables, seededRandom(options.seed), options.uniform);
  const results = new Map<string, Measure>();
  for (const framework of BENCH_FRAMEWORKS) {
    const batches: string[] = [];
    for (let made = 0; made < options.pairs; made += BATCH) {
      const size = Math.min(BATCH, options.pairs - made);
      batches.push(JSON.stringify(Array.from({ length: size }, () => maker.pair(framework))));
    }
    results.set(framework, measure(engine, batches, options.seconds));
  }
  const m8 = results.get('8/8')!;
  const m12 = results.get('12/12')!;

  const rows: [string, string, string][] = [
    ['pairs/s (CPU time)', m8.pairsPerS.toLocaleString('en-US'), m12.pairsPerS.toLocaleString('en-US')],
    ['µs per pair', (1e6 / m8.pairsPerS).toFixed(2), (1e6 / m12.pairsPerS).toFixed(2)],
    ['pairs/s (wall clock)', m8.wallPairsPerS.toLocaleString('en-US'), m12.wallPairsPerS.toLocaleString('en-US')],
    ['pairs/s (first pass)', m8.coldPairsPerS.toLocaleString('en-US'), m12.coldPairsPerS.toLocaleString('en-US')],
    ['pairs timed', m8.runs.toLocaleString('en-US'), m12.runs.toLocaleString('en-US')],
    ['with a potential locus', `${Math.round(m8.potentialShare * 100)}%`, `${Math.round(m12.potentialShare * 100)}%`],
  ];
  const width = Math.max(...rows.map((r) => r[0].length));
  const column = Math.max(12, ...rows.flatMap((r) => [r[1].length, r[2].length]));
  console.log(`match bench — release ${engine.release}, ${options.pairs.toLocaleString('en-US')} distinct pairs per framework, seed ${options.seed}, ${options.uniform ? 'uniform' : 'Zipf-like'} allele frequencies, one core`);
  console.log(`engine loaded in ${Math.round(loadMs)} ms from ${dataDir}`);
  console.log(`${''.padEnd(width)}  ${'8/8'.padStart(column)}  ${'12/12'.padStart(column)}`);
  for (const [label, a, b] of rows) console.log(`${label.padEnd(width)}  ${a.padStart(column)}  ${b.padStart(column)}`);
  console.log(`most frequent counts 8/8:   ${topCounts(m8.counts, options.pairs)}`);
  console.log(`most frequent counts 12/12: ${topCounts(m12.counts, options.pairs)}`);
  console.log('pairs/s = matched pairs per second of CPU time, one thread, validation included, JSON parsing excluded');

  if (options.json) {
    console.log(
      JSON.stringify({
        pairs_per_s: Math.min(m8.pairsPerS, m12.pairsPerS),
        pairs_per_s_8_8: m8.pairsPerS,
        pairs_per_s_12_12: m12.pairsPerS,
        wall_pairs_per_s_8_8: m8.wallPairsPerS,
        wall_pairs_per_s_12_12: m12.wallPairsPerS,
        first_pass_pairs_per_s_8_8: m8.coldPairsPerS,
        first_pass_pairs_per_s_12_12: m12.coldPairsPerS,
        pairs: options.pairs,
        seconds: options.seconds,
        seed: options.seed,
        allele_frequencies: options.uniform ? 'uniform' : 'zipf',
        release: engine.release,
      }),
    );
  }
}

await main();
