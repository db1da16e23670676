/**
 * Bulk normalize throughput through the real queue: a generated CSV (default 1,000,000 rows) is
 * submitted to BullMQ on REDIS_URL (default redis://127.0.0.1:6379), one worker process
 * (`workers/bulk-worker.ts`) runs it, and the signed result is POSTed to a local receiver.
 * Timed from submit to the last byte of the callback; target ≥ 200,000 rows/s per worker.
 *
 *   npm run bench:bulk -- [--rows 1000000] [--json]
 *
 * With --json the last line is one JSON object: rows, seconds, rows_per_s, worker_rss_mb (peak
 * resident memory of the worker process), and the worker's own timings.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import { Webhook } from 'standardwebhooks';
import { benchDataDir, REPO_ROOT } from './figures.ts';
import { loadJobsConfig } from '../src/jobs/config.ts';
import { QueueJobService } from '../src/jobs/queue-service.ts';
import { normalizeSubmission } from '../src/jobs/submission.ts';

const args = process.argv.slice(2);
const json = args.includes('--json');
const rowsArg = args.indexOf('--rows');
const ROWS = rowsArg >= 0 ? Number(args[rowsArg + 1]) : 1_000_000;
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const say = (line: string): void => {
  process.stdout.write(`${line}\n`);
};

// Names of every era and kind: current, legacy colon-less, Cw, deleted, XX, G group, null, made up.
const TYPINGS = [
  'A*01:01', 'A*02:01:01:01', 'A*0201', 'A*24:02', 'A*24:09N', 'A*02:XX', 'A*02:01:01G', 'A*2401',
  'B*07:02', 'B*08:01', 'B*44:02:01:01', 'B*1308Q', 'B*15:01', 'Cw*0702', 'C*07:01', 'C*03:12',
  'DRB1*15:01', 'DRB1*15:13', 'DRB1*03:01', 'DQB1*06:02', 'DPB1*04:01', 'A*99:99', 'HLA-A*03:01', 'A*11:53',
];

function generateCsv(rows: number): Buffer {
  const parts: string[] = ['sample_id,typing,site'];
  for (let i = 0; i < rows; i++) parts.push(`S${i},${TYPINGS[(i * 7) % TYPINGS.length]},L${i % 13}`);
  parts.push('');
  return Buffer.from(parts.join('\n'));
}

/** Peak and current resident memory of a process, from /proc (Linux). */
function memoryOf(pid: number): { peakMb: number | null; rssMb: number | null } {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field: string) => {
      const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
      return m === null ? null : Math.round(Number(m[1]) / 1024);
    };
    return { peakMb: kb('VmHWM'), rssMb: kb('VmRSS') };
  } catch {
    return { peakMb: null, rssMb: null };
  }
}

async function main(): Promise<void> {
  const secret = `whsec_${randomBytes(32).toString('base64')}`;
  const prefix = `bench-bulk-${randomBytes(4).toString('hex')}:`;
  const dataDir = benchDataDir();
  const env: Record<string, string> = {
    REDIS_URL,
    HLA_SERVICE_REDIS_PREFIX: prefix,
    HLA_SERVICE_WEBHOOK_SECRET: secret,
    HLA_SERVICE_ALLOW_PRIVATE_CALLBACKS: 'true',
    HLA_SERVICE_WORKER_CONCURRENCY: '1',
    HLA_SERVICE_JOB_MAX_BYTES: String(512 * 1024 * 1024),
    HLA_SERVICE_QUEUE_TIMEOUT_MS: '10000',
    LOG_LEVEL: 'info',
  };
  if (existsSync(dataDir)) Object.assign(env, { HLA_SERVICE_DATA_DIR: dataDir, HLA_SERVICE_OFFLINE: 'true' });

  // Receiver: collects the body, notes when its last byte arrived.
  let resolveDelivery!: (d: { body: Buffer; headers: http.IncomingHttpHeaders; at: number }) => void;
  const delivered = new Promise<{ body: Buffer; headers: http.IncomingHttpHeaders; at: number }>((r) => (resolveDelivery = r));
  const receiver = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const at = performance.now();
      response.writeHead(204).end();
      resolveDelivery({ body: Buffer.concat(chunks), headers: request.headers, at });
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const callbackUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/bench`;

  const worker = spawn(process.execPath, ['--import', 'tsx', 'workers/bulk-worker.ts'], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let workerLog = '';
  worker.stdout.on('data', (chunk: Buffer) => (workerLog += chunk.toString()));
  worker.stderr.on('data', (chunk: Buffer) => (workerLog += chunk.toString()));
  const redis = new Redis(REDIS_URL);
  const jobs = new QueueJobService(loadJobsConfig({ ...process.env, ...env }));
  try {
    const until = Date.now() + 60_000;
    while (!workerLog.includes('bulk worker ready')) {
      if (worker.exitCode !== null || Date.now() > until) throw new Error(`worker did not start:\n${workerLog}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const idle = memoryOf(worker.pid!);

    const csv = generateCsv(ROWS);
    say(`bulk bench: ${ROWS} rows, ${(csv.length / 1e6).toFixed(1)} MB in, one worker, Redis ${REDIS_URL}`);
    const submission = await normalizeSubmission({
      csv,
      columns: ['typing'],
      callbackUrl,
      submitter: { kind: 'key', label: 'bench' },
      tag: process.env.HLA_SERVICE_TAG ?? 'v3.65.0-alpha',
      allowPrivateCallbacks: true,
    });
    for (let i = 0; i < 50 && (await redis.ping().catch(() => null)) !== 'PONG'; i++) await new Promise((r) => setTimeout(r, 100));
    const started = performance.now();
    const { jobId } = await jobs.submit(submission);
    const submitMs = performance.now() - started;
    const delivery = await delivered;
    const seconds = (delivery.at - started) / 1000;
    const peak = memoryOf(worker.pid!);

    // Sanity (untimed): the receiver can verify it, and every row came back.
    new Webhook(secret).verify(delivery.body, delivery.headers as Record<string, string>, { jsonParse: false });
    let lines = 0;
    for (let i = delivery.body.indexOf(10); i !== -1; i = delivery.body.indexOf(10, i + 1)) lines++;
    if (lines !== ROWS + 1) throw new Error(`result has ${lines} lines, expected ${ROWS + 1}`);
    if (delivery.headers['webhook-id'] !== `msg_${jobId}`) throw new Error('unexpected webhook-id');

    for (let i = 0; i < 100 && !workerLog.includes('"job completed"'); i++) await new Promise((r) => setTimeout(r, 50));
    const completed = workerLog
      .split('\n')
      .filter((line) => line.includes('"job completed"'))
      .map((line) => JSON.parse(line) as Record<string, number>)
      .at(-1);
    const result = {
      rows: ROWS,
      seconds: Math.round(seconds * 1000) / 1000,
      rows_per_s: Math.round(ROWS / seconds),
      worker_rss_mb: peak.peakMb,
      worker_idle_rss_mb: idle.rssMb,
      bytes_in: csv.length,
      bytes_out: delivery.body.length,
      submit_ms: Math.round(submitMs),
      worker_process_ms: completed?.process_ms ?? null,
      worker_total_ms: completed?.total_ms ?? null,
      worker_rows_per_s: completed?.process_ms ? Math.round(ROWS / (completed.process_ms / 1000)) : null,
    };
    say(`submit → callback received: ${result.seconds} s, ${result.rows_per_s} rows/s (target ≥ 200000)`);
    say(`worker: processing ${result.worker_process_ms} ms (${result.worker_rows_per_s} rows/s), job incl. signing + delivery ${result.worker_total_ms} ms`);
    say(`worker memory: ${result.worker_idle_rss_mb} MB idle, ${result.worker_rss_mb} MB peak; ${(result.bytes_out / 1e6).toFixed(1)} MB out`);
    if (json) say(JSON.stringify(result));
  } finally {
    worker.kill('SIGTERM');
    await jobs.close();
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
    receiver.closeAllConnections();
    receiver.close();
  }
}

main().catch((error) => {
  process.stderr.write(`bench:bulk failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
