/**
 * Queue mode against a real Redis (REDIS_URL): the API app submits to BullMQ, a worker (in this
 * process) runs the job, the result arrives signed at a local receiver — and afterwards Redis
 * holds no content: only the status record's counts and BullMQ's own bookkeeping.
 */
import { parse } from 'csv-parse/sync';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobsConfig } from '../../src/jobs/config.ts';
import { jobKeys, RedisInputStore } from '../../src/jobs/input-store.ts';
import { QueueJobService } from '../../src/jobs/queue-service.ts';
import type { JobStatus } from '../../src/jobs/types.ts';
import { startBulkWorker, type BulkWorker } from '../../src/jobs/worker.ts';
import type { Engine } from '../../src/nomenclature/engine-types.ts';
import { capturingLogger, testApp, testCatalog } from '../api/helpers.ts';
import {
  deleteKeys,
  dumpValues,
  eventually,
  REDIS_SKIP_REASON,
  redisUrlForTests,
  scanKeys,
  startReceiver,
  testJobsConfig,
  uniquePrefix,
  verifyDelivery,
  type Receiver,
} from './helpers.ts';

const REDIS_URL = await redisUrlForTests();
if (!REDIS_URL) console.warn(`test/jobs/queue.test.ts ${REDIS_SKIP_REASON}`);

const KEYS = 'key-alpha-0001;label=alpha,key-beta-0002;label=beta';
const ALPHA = { 'x-api-key': 'key-alpha-0001', 'content-type': 'text/csv' };

/** Keys a finished job may leave: its status record (counts and times) and BullMQ's bookkeeping. */
function allowedAfterJobs(prefix: string, key: string): boolean {
  const rest = key.slice(prefix.length);
  return /^jobs:status:[0-9a-f-]{36}$/.test(rest) || /^jobs:bulk:(meta|events|id|stalled-check|marker)$/.test(rest);
}

describe.skipIf(!REDIS_URL)('queue mode (BullMQ on REDIS_URL)', () => {
  const prefix = uniquePrefix();
  let config: JobsConfig;
  let redis: Redis;
  let jobs: QueueJobService;
  let worker: BulkWorker;
  let app: FastifyInstance;
  let receiver: Receiver;
  let engine: Engine;
  const logs = capturingLogger('debug');

  beforeAll(async () => {
    const catalog = await testCatalog();
    engine = catalog.defaultEngine;
    config = testJobsConfig({ REDIS_URL: REDIS_URL!, HLA_SERVICE_REDIS_PREFIX: prefix });
    redis = new Redis(REDIS_URL!);
    jobs = new QueueJobService(config);
    worker = startBulkWorker({ config, engineFor: (tag) => catalog.engineFor(tag), log: logs.logger });
    await worker.worker.waitUntilReady();
    app = await testApp({ env: { HLA_SERVICE_API_KEYS: KEYS }, jobs, logger: logs.logger });
    receiver = await startReceiver();
    await eventually(async () => expect(await redis.ping()).toBe('PONG'));
  });

  afterAll(async () => {
    await app?.close();
    await worker?.close();
    await jobs?.close();
    await receiver?.close();
    if (redis) {
      await deleteKeys(redis, prefix);
      await redis.quit();
    }
  });

  async function submit(url: string, csv: string): Promise<string> {
    const res = await eventually(async () => {
      const r = await app.inject({ method: 'POST', url: `${url}&callback_url=${encodeURIComponent(receiver.url)}`, payload: csv, headers: ALPHA });
      expect(r.statusCode, r.body).toBe(202);
      return r;
    }, 5_000);
    return (res.json() as { job_id: string }).job_id;
  }

  async function finished(jobId: string): Promise<JobStatus> {
    return eventually(async () => {
      const res = await app.inject({ method: 'GET', url: `/v1/jobs/${jobId}`, headers: { 'x-api-key': 'key-alpha-0001' } });
      const status = res.json() as JobStatus;
      expect(['completed', 'failed']).toContain(status.state);
      return status;
    }, 20_000);
  }

  const typings = ['A*0201', 'Cw*0702', 'DRB1*15:13', 'B*44:02:01:01', 'A*24:09N', 'C*03:12', 'XYZ*01:01'];
  const registry = ['sample_ref,typing', ...typings.map((t, i) => `SAMPLE-${1000 + i},${t}`)].join('\n');

  it('runs a job through a worker, delivers the signed CSV, and leaves no content in Redis', async () => {
    const jobId = await submit('/v1/jobs/normalize?column=typing', registry);
    const delivery = await receiver.waitForMessage(`msg_${jobId}`);
    verifyDelivery(delivery);
    const [header, ...rows] = parse(delivery.body) as string[][];
    expect(header).toEqual(['sample_ref', 'typing', 'typing_current_name', 'typing_allele_2field', 'typing_g_group', 'typing_flags', 'error']);
    expect(rows.map((row) => row[1])).toEqual(typings);
    for (const row of rows) {
      const expected = engine.normalizeOne(row[1]);
      expect(row.slice(2, 6)).toEqual([expected.current_name, expected.allele_2field, expected.g_group, expected.flags.join('|')]);
    }

    const status = await finished(jobId);
    expect(status).toMatchObject({ state: 'completed', progress: { rows_done: typings.length, rows_total: typings.length }, row_errors: 0 });

    // Redis after the job: only allowed keys, and no typing, row or callback URL anywhere in them.
    await eventually(async () => {
      const keys = await scanKeys(redis, prefix);
      const unexpected = [...keys.keys()].filter((key) => !allowedAfterJobs(prefix, key));
      expect(unexpected).toEqual([]);
      expect(keys.get(`${prefix}jobs:status:${jobId}`)).toBe('hash');
    });
    const dumped = await dumpValues(redis, prefix);
    for (const needle of [...typings, 'SAMPLE-1000', 'sample_ref', String(new URL(receiver.url).port), 'alpha']) {
      expect(dumped.includes(needle), needle).toBe(false);
    }
    const record = await redis.hgetall(`${prefix}jobs:status:${jobId}`);
    expect(Object.keys(record).sort()).toEqual(['done', 'errors', 'finished', 'kind', 'owner', 'started', 'state', 'submitted', 'total']);
    expect(await redis.ttl(`${prefix}jobs:status:${jobId}`)).toBeGreaterThan(0);
    expect(logs.text()).not.toMatch(/A\*0201|SAMPLE-|hooks\/hla/);
  });

  it('reports bad rows per row through the queue', async () => {
    const csv = ['id,typing,lab', 'S1,A*01:01,x', 'S2,"A*02:01"oops,y', 'S3', 'S4,B*07:02,z'].join('\n');
    const jobId = await submit('/v1/jobs/normalize?column=typing', csv);
    const delivery = await receiver.waitForMessage(`msg_${jobId}`);
    const [, ...rows] = parse(delivery.body, { relax_column_count: true }) as string[][];
    expect(rows.map((row) => [row[0], row.at(-1)])).toEqual([
      ['S1', ''],
      ['', 'row 2: malformed CSV record (text follows a closing quote)'],
      ['S3', 'row 3: 1 fields where the header has 3'],
      ['S4', ''],
    ]);
    expect(await finished(jobId)).toMatchObject({ state: 'completed', row_errors: 2, progress: { rows_done: 4 } });
  });

  it('keeps a job private to its key', async () => {
    const jobId = await submit('/v1/jobs/normalize?column=typing', registry);
    await finished(jobId);
    const other = await app.inject({ method: 'GET', url: `/v1/jobs/${jobId}`, headers: { 'x-api-key': 'key-beta-0002' } });
    expect(other.statusCode).toBe(404);
  });

  it('moves the input out of the queue at first read and deletes it after delivery', async () => {
    const keys = jobKeys(prefix);
    const inputs = new RedisInputStore(redis, keys, 60);
    await redis.hset(keys.input('probe'), RedisInputStore.fields({ csv: Buffer.from('a\n1\n'), recipient: { A: ['A*01:01'] } }));
    const first = await inputs.claim('probe');
    expect(first?.csv.toString()).toBe('a\n1\n');
    expect(first?.recipient).toEqual({ A: ['A*01:01'] });
    expect(await redis.exists(keys.input('probe'))).toBe(0);
    expect(await redis.ttl(keys.processing('probe'))).toBeGreaterThan(0);
    // A retry (after a worker crash) reads it again from the processing key.
    expect((await inputs.claim('probe'))?.csv.toString()).toBe('a\n1\n');
    await inputs.discard('probe');
    expect(await redis.exists(keys.input('probe'), keys.processing('probe'))).toBe(0);
    expect(await inputs.claim('probe')).toBeNull();
  });
});
