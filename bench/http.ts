/**
 * HTTP benchmark: autocannon on loopback against a bare Fastify route (same Fastify options and
 * logger as the service, nothing else) and against the service's routes, in one process and one
 * run, so every route's throughput is reported as a ratio to the bare route.
 *
 *   npm run bench:http [-- --duration=3 --rounds=2 --warmup=1 --connections=10 --json]
 *
 * The service runs as a keyed caller without a cap (key lookup, metering and the access log all
 * run), memory counters, logs written to /dev/null at info level. The load generator runs in an
 * autocannon worker thread so it does not share the server's event loop. With `--json` the last
 * line is one JSON object: `bare_rps` and `<route>_rps` / `<route>_ratio` for each route.
 * "server µs/req" is the server thread's busy time per request (event-loop utilisation), which
 * other processes on the machine disturb less than throughput.
 * Targets (issue "The HTTP service"): allele ≥ 70 % and normalize(1) ≥ 60 % of bare.
 */
import { existsSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import type { AddressInfo } from 'node:net';
// @ts-expect-error -- autocannon ships no type declarations; the subset used is typed below.
import autocannonUntyped from 'autocannon';
import Fastify, { type FastifyInstance } from 'fastify';
import pino from 'pino';
import { buildApp, fastifyOptions } from '../src/api/app.ts';
import { createLogger } from '../src/api/logger.ts';
import { loadConfig } from '../src/config.ts';
import { releaseSourceFromEnv } from '../src/reference/release-source.ts';
import { createReleaseCatalog, loadEngine } from '../src/releases.ts';
import { benchDataDir } from './figures.ts';

const args = new Map(
  process.argv.slice(2).map((arg) => {
    const [name, value] = arg.replace(/^--/, '').split('=');
    return [name, value ?? 'true'] as const;
  }),
);
const DURATION_S = Number(args.get('duration') ?? 3);
const ROUNDS = Number(args.get('rounds') ?? 2);
const WARMUP_S = Number(args.get('warmup') ?? 1);
const CONNECTIONS = Number(args.get('connections') ?? 10);
const JSON_OUTPUT = args.has('json');
const BENCH_KEY = 'bench-key-0000000000000001';

interface LoadResult {
  requests: { average: number };
  latency: { p99: number };
  errors: number;
  non2xx: number;
}
const autocannon = autocannonUntyped as (options: Record<string, unknown>) => Promise<LoadResult>;

interface Target {
  readonly name: string;
  readonly label: string;
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly body?: string;
}

function verifyText(): string {
  const names = ['A*02:01', 'HLA-B*07:02', 'A*02:999:01', 'DRB1*15:13', 'A*02:01:01G', 'Cw*0702', 'C*07:02:01:01', 'DQB1*06:02', 'B*44:02/B*44:27'];
  let text = '';
  for (let i = 0; text.length < 200_000; i++) {
    text += `Patient ${i} typed ${names[i % names.length]} and ${names[(i * 7 + 3) % names.length]} at high resolution; `;
  }
  return text.slice(0, 200_000);
}

function targets(): Target[] {
  const typings = ['A*01:01:01:01', 'A*0101', 'Cw*0702', 'DRB1*15:13', 'A*02:XX', 'B*99:99', 'DQB1*06:02', 'A*02:01:01G'];
  const pair = {
    framework: '8/8',
    recipient: { A: ['A*01:01', 'A*02:01'], B: ['B*07:02', 'B*08:01'], C: ['C*07:01', 'C*07:02'], DRB1: ['DRB1*15:01', 'DRB1*03:01'] },
    donor: { A: ['A*01:01', 'A*02:01'], B: ['B*07:02', 'B*08:01'], C: ['C*07:01', 'C*07:02'], DRB1: ['DRB1*15:01', 'DRB1*04:01'] },
  };
  return [
    { name: 'bare', label: 'bare Fastify route', method: 'GET', path: '/bare' },
    { name: 'allele', label: 'GET /v1/allele/A*01:01:01:01', method: 'GET', path: '/v1/allele/A*01:01:01:01' },
    { name: 'normalize1', label: 'POST /v1/normalize (1)', method: 'POST', path: '/v1/normalize', body: JSON.stringify({ typings: ['A*0101'] }) },
    {
      name: 'normalize5000',
      label: 'POST /v1/normalize (5,000)',
      method: 'POST',
      path: '/v1/normalize',
      body: JSON.stringify({ typings: Array.from({ length: 5_000 }, (_, i) => typings[i % typings.length]) }),
    },
    { name: 'verify200k', label: 'POST /v1/verify (200k chars)', method: 'POST', path: '/v1/verify', body: JSON.stringify({ text: verifyText() }) },
    { name: 'match', label: 'POST /v1/match (8/8)', method: 'POST', path: '/v1/match', body: JSON.stringify(pair) },
  ];
}

async function loadCatalog() {
  const source = releaseSourceFromEnv();
  // The bench never touches the network: the shared mirror (or HLA_SERVICE_DATA_DIR), offline.
  const mirror = benchDataDir();
  const dataDir = existsSync(mirror) ? mirror : null;
  return createReleaseCatalog({
    defaultTag: source.tag,
    load: (tag) => loadEngine({ ...source, tag, dataDir, offline: dataDir !== null || source.offline }),
  });
}

async function run(port: number, target: Target, seconds: number): Promise<LoadResult> {
  return autocannon({
    url: `http://127.0.0.1:${port}${target.path}`,
    method: target.method,
    body: target.body,
    headers: { 'content-type': 'application/json', 'x-api-key': BENCH_KEY },
    connections: CONNECTIONS,
    duration: seconds,
    workers: 1,
  });
}

async function listen(app: FastifyInstance): Promise<number> {
  await app.listen({ host: '127.0.0.1', port: 0 });
  return (app.server.address() as AddressInfo).port;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

interface Sample {
  rps: number;
  p99: number;
  errors: number;
  /** Main-thread busy time per request (event-loop utilisation × time / requests), in µs. */
  busyUs: number;
}

async function measure(port: number, target: Target, seconds: number): Promise<Sample> {
  const before = performance.eventLoopUtilization();
  const result = await run(port, target, seconds);
  const elu = performance.eventLoopUtilization(before);
  const requests = result.requests.average * seconds;
  return {
    rps: result.requests.average,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx,
    busyUs: requests > 0 ? (elu.active * 1000) / requests : 0,
  };
}

async function main(): Promise<void> {
  const config = loadConfig({ HLA_SERVICE_API_KEYS: `${BENCH_KEY};label=bench`, HLA_SERVICE_ANON_RPM: 'unlimited', LOG_LEVEL: 'info' });
  const logger = createLogger({ level: 'info', destination: pino.destination({ dest: '/dev/null', sync: false }) });

  const bare = Fastify(fastifyOptions(config, logger));
  bare.get('/bare', async () => ({ ok: true }));
  const service = await buildApp({ catalog: await loadCatalog(), config, logger });
  const ports = { bare: await listen(bare), service: await listen(service) };
  const portOf = (target: Target) => (target.name === 'bare' ? ports.bare : ports.service);

  const all = targets();
  for (const target of all) {
    const check = await fetch(`http://127.0.0.1:${portOf(target)}${target.path}`, {
      method: target.method,
      body: target.body,
      headers: { 'content-type': 'application/json', 'x-api-key': BENCH_KEY },
    });
    if (check.status !== 200) throw new Error(`${target.label} answered ${check.status}: ${await check.text()}`);
    if (WARMUP_S > 0) await run(portOf(target), target, WARMUP_S);
  }

  // Rounds interleave the bare route with every other route, and each route's ratio is taken
  // against the bare run of the same round: on a shared machine the load of other processes
  // moves both alike. Medians over rounds.
  const samples = new Map<string, Sample[]>(all.map((target) => [target.name, []]));
  const ratios = new Map<string, number[]>(all.map((target) => [target.name, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const target of all.slice(1)) {
      const bareSample = await measure(ports.bare, all[0], DURATION_S);
      const sample = await measure(portOf(target), target, DURATION_S);
      samples.get('bare')!.push(bareSample);
      samples.get(target.name)!.push(sample);
      ratios.get(target.name)!.push(sample.rps / bareSample.rps);
    }
    if (!JSON_OUTPUT) process.stderr.write(`  round ${round + 1}/${ROUNDS} done\n`);
  }
  await service.close();
  await bare.close();

  const rows = all.map((target) => {
    const list = samples.get(target.name)!;
    return {
      target,
      rps: median(list.map((s) => s.rps)),
      p99: median(list.map((s) => s.p99)),
      busyUs: median(list.map((s) => s.busyUs)),
      errors: list.reduce((sum, s) => sum + s.errors, 0),
      ratio: target.name === 'bare' ? 1 : median(ratios.get(target.name)!),
    };
  });

  const header = ['route', 'req/s', 'p99 ms', 'server µs/req', 'vs bare', 'errors'];
  const table = rows.map(({ target, rps, p99, busyUs, ratio, errors }) => [
    target.label,
    rps.toFixed(0),
    p99.toFixed(1),
    busyUs.toFixed(1),
    `${(ratio * 100).toFixed(1)}%`,
    String(errors),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...table.map((row) => row[i].length)));
  const line = (cells: string[]) => cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  ');
  console.log(
    `HTTP bench: ${CONNECTIONS} connections, ${ROUNDS} rounds of ${DURATION_S}s per route, each against the bare route ` +
      `of the same round (medians), loopback, Node ${process.version}`,
  );
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of table) console.log(line(row));

  if (JSON_OUTPUT) {
    const summary: Record<string, number> = { bare_rps: Math.round(rows[0].rps) };
    for (const { target, rps, ratio } of rows.slice(1)) {
      summary[`${target.name}_rps`] = Math.round(rps);
      summary[`${target.name}_ratio`] = Math.round(ratio * 1000) / 1000;
    }
    console.log(JSON.stringify(summary));
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
