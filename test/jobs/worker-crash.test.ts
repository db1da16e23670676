/**
 * A worker process killed mid-job: real `node --import tsx workers/bulk-worker.ts` children on
 * REDIS_URL. The first worker takes the job and is SIGKILLed while its result delivery is under
 * way; a second worker recovers the stalled job (BullMQ), finds the input under the processing
 * key, redoes it, and delivers with the same `webhook-id` — so the receiver sees one message.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobKeys } from '../../src/jobs/input-store.ts';
import { QueueJobService } from '../../src/jobs/queue-service.ts';
import { normalizeSubmission } from '../../src/jobs/submission.ts';
import { SHARED_DATA_DIR } from '../support/engine.ts';
import {
  deleteKeys,
  eventually,
  REDIS_SKIP_REASON,
  redisUrlForTests,
  scanKeys,
  startReceiver,
  TEST_SECRET,
  testJobsConfig,
  uniquePrefix,
  verifyDelivery,
  type Receiver,
} from './helpers.ts';

const REDIS_URL = await redisUrlForTests();
if (!REDIS_URL) console.warn(`test/jobs/worker-crash.test.ts ${REDIS_SKIP_REASON}`);

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

interface WorkerProcess {
  readonly child: ChildProcess;
  readonly output: () => string;
  readonly exited: Promise<number | null>;
}

/** Starts `workers/bulk-worker.ts` as its own process and waits for its "ready" line. */
async function spawnWorker(env: Record<string, string>): Promise<WorkerProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'workers/bulk-worker.ts'], {
    cwd: repoRoot,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  await eventually(() => {
    if (child.exitCode !== null) throw new Error(`worker exited early (${child.exitCode}): ${output}`);
    expect(output).toContain('bulk worker ready');
  }, 30_000, 50);
  return { child, output: () => output, exited };
}

describe.skipIf(!REDIS_URL)('a worker killed mid-job (worker processes on REDIS_URL)', () => {
  const prefix = uniquePrefix();
  const env = {
    REDIS_URL: REDIS_URL!,
    HLA_SERVICE_REDIS_PREFIX: prefix,
    HLA_SERVICE_WEBHOOK_SECRET: TEST_SECRET,
    HLA_SERVICE_ALLOW_PRIVATE_CALLBACKS: 'true',
    HLA_SERVICE_WORKER_LOCK_MS: '2000',
    HLA_SERVICE_WORKER_STALLED_MS: '1000',
    HLA_SERVICE_CALLBACK_TIMEOUT_MS: '60000',
    HLA_SERVICE_CALLBACK_BACKOFF_MS: '100',
    HLA_SERVICE_DATA_DIR: SHARED_DATA_DIR,
    HLA_SERVICE_OFFLINE: 'true',
    LOG_LEVEL: 'info',
  };
  const workers: WorkerProcess[] = [];
  let redis: Redis;
  let jobs: QueueJobService;
  let receiver: Receiver;

  beforeAll(async () => {
    redis = new Redis(REDIS_URL!);
    jobs = new QueueJobService(testJobsConfig(env));
    // The first delivery never gets an answer: its worker is killed while waiting for it.
    receiver = await startReceiver((index) => (index === 0 ? 'hang' : 204));
  });

  afterAll(async () => {
    for (const worker of workers) if (worker.child.exitCode === null) worker.child.kill('SIGKILL');
    await jobs?.close();
    await receiver?.close();
    if (redis) {
      await deleteKeys(redis, prefix);
      await redis.quit();
    }
  });

  it('is retried by another worker; the receiver sees one distinct webhook-id', async () => {
    const first = await spawnWorker(env);
    workers.push(first);
    const typings = Array.from({ length: 5000 }, (_, i) => ['A*0201', 'B*07:02', 'Cw*0702', 'DRB1*15:13', 'Q*99:99'][i % 5]);
    const csv = Buffer.from(['sample,typing', ...typings.map((t, i) => `S${i},${t}`)].join('\n'));
    const submission = await normalizeSubmission({
      csv,
      columns: ['typing'],
      callbackUrl: receiver.url,
      submitter: { kind: 'key', label: 'crash-test' },
      tag: 'v3.65.0-alpha',
      allowPrivateCallbacks: true,
    });
    const { jobId } = await eventually(() => jobs.submit(submission), 5_000);

    // Worker 1 has processed the CSV and is delivering: kill it there.
    await receiver.waitFor(1);
    const keys = jobKeys(prefix);
    expect(await redis.exists(keys.processing(jobId))).toBe(1);
    first.child.kill('SIGKILL');
    expect(await first.exited).toBeNull();
    expect(await redis.hget(keys.status(jobId), 'state')).toBe('active');

    const second = await spawnWorker(env);
    workers.push(second);
    const deliveries = await receiver.waitFor(2, 40_000);
    expect(new Set(deliveries.map((d) => d.headers['webhook-id']))).toEqual(new Set([`msg_${jobId}`]));
    deliveries.forEach((delivery) => verifyDelivery(delivery));
    expect(deliveries[1].body.equals(deliveries[0].body)).toBe(true);
    expect(deliveries[1].body.toString().split('\n').filter(Boolean)).toHaveLength(typings.length + 1);
    expect(second.output()).toContain('job stalled');

    await eventually(async () => expect(await redis.hget(keys.status(jobId), 'state')).toBe('completed'), 10_000);
    // Delivered: the input is gone from Redis, and so is the job.
    await eventually(async () => {
      const left = [...(await scanKeys(redis, prefix)).keys()].map((key) => key.slice(prefix.length));
      expect(left.filter((key) => key.includes(jobId))).toEqual([`jobs:status:${jobId}`]);
    });
    expect(receiver.deliveries).toHaveLength(2);

    // Graceful stop on SIGTERM.
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
  });

  it('fails a job whose workers keep dying, with a failure notice, after HLA_SERVICE_WORKER_MAX_STALLED', async () => {
    const strictEnv = { ...env, HLA_SERVICE_WORKER_MAX_STALLED: '0' };
    const doomed = await startReceiver((index) => (index === 0 ? 'hang' : 204));
    try {
      const first = await spawnWorker(strictEnv);
      workers.push(first);
      const submission = await normalizeSubmission({
        csv: Buffer.from('sample,typing\nS1,A*01:01\n'),
        columns: ['typing'],
        callbackUrl: doomed.url,
        submitter: { kind: 'key', label: 'crash-test' },
        tag: 'v3.65.0-alpha',
        allowPrivateCallbacks: true,
      });
      const { jobId } = await eventually(() => jobs.submit(submission), 5_000);
      await doomed.waitFor(1);
      first.child.kill('SIGKILL');
      await first.exited;

      const second = await spawnWorker(strictEnv);
      workers.push(second);
      const notice = await doomed.waitForMessage(`msg_${jobId}_failed`, 40_000);
      verifyDelivery(notice);
      expect(JSON.parse(notice.body.toString())).toMatchObject({
        type: 'job.failed',
        job_id: jobId,
        reason: 'the job was interrupted too many times (its workers stopped while processing it)',
      });
      const keys = jobKeys(prefix);
      await eventually(async () => expect(await redis.hget(keys.status(jobId), 'state')).toBe('failed'), 10_000);
      await eventually(async () => expect(await redis.exists(keys.input(jobId), keys.processing(jobId))).toBe(0));
      second.child.kill('SIGTERM');
      expect(await second.exited).toBe(0);
    } finally {
      await doomed.close();
    }
  });
});
