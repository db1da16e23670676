/**
 * Redis goes away: submit answers 503 at once with a clear detail, the synchronous endpoints keep
 * answering, and submits work again when Redis is back. Uses its own `redis-server` child on a
 * free port (never the shared one), stopped and restarted by the test.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QUEUE_UNAVAILABLE_DETAIL, QueueJobService } from '../../src/jobs/queue-service.ts';
import { testApp } from '../api/helpers.ts';
import { eventually, startReceiver, testJobsConfig, type Receiver } from './helpers.ts';

const HAS_REDIS_SERVER = spawnSync('redis-server', ['--version']).status === 0;
if (!HAS_REDIS_SERVER) console.warn('test/jobs/redis-outage.test.ts skipped: no redis-server binary to start a private Redis');

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function startRedis(port: number): ChildProcess {
  return spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
    stdio: 'ignore',
  });
}

async function stopRedis(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGKILL');
  await exited;
}

describe.skipIf(!HAS_REDIS_SERVER)('Redis outage', () => {
  let port: number;
  let redis: ChildProcess;
  let jobs: QueueJobService;
  let app: FastifyInstance;
  let receiver: Receiver;
  const csv = 'id,typing\nS1,A*01:01\n';

  beforeAll(async () => {
    port = await freePort();
    redis = startRedis(port);
    jobs = new QueueJobService(
      testJobsConfig({ REDIS_URL: `redis://127.0.0.1:${port}`, HLA_SERVICE_REDIS_PREFIX: 'outage:', HLA_SERVICE_QUEUE_TIMEOUT_MS: '500' }),
    );
    app = await testApp({ jobs });
    receiver = await startReceiver();
  });

  afterAll(async () => {
    await app?.close();
    await jobs?.close();
    await receiver?.close();
    if (redis) await stopRedis(redis);
  });

  const submit = () =>
    app.inject({
      method: 'POST',
      url: `/v1/jobs/normalize?column=typing&callback_url=${encodeURIComponent(receiver.url)}`,
      payload: csv,
      headers: { 'content-type': 'text/csv' },
    });

  it('answers 503 while Redis is down, keeps the sync endpoints up, and recovers', async () => {
    const accepted = await eventually(async () => {
      const res = await submit();
      expect(res.statusCode).toBe(202);
      return res.json() as { job_id: string };
    }, 10_000, 100);

    await stopRedis(redis);
    const started = Date.now();
    const refused = await eventually(async () => {
      const res = await submit();
      expect(res.statusCode).toBe(503);
      return res;
    }, 5_000, 50);
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(refused.json()).toEqual({ detail: QUEUE_UNAVAILABLE_DETAIL });
    expect(refused.headers['retry-after']).toBe('5');
    const fast = Date.now();
    expect((await submit()).statusCode).toBe(503);
    expect(Date.now() - fast).toBeLessThan(1_500);
    expect((await app.inject({ method: 'GET', url: `/v1/jobs/${accepted.job_id}` })).statusCode).toBe(503);

    const normalize = await app.inject({ method: 'POST', url: '/v1/normalize', payload: { typings: ['A*0201'] } });
    expect(normalize.statusCode).toBe(200);
    expect(normalize.json().rows[0].current_name).toBe('A*02:01');
    expect((await app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    const matchRes = await app.inject({
      method: 'POST',
      url: '/v1/match',
      payload: { recipient: { A: ['A*01:01', 'A*02:01'] }, donor: { A: ['A*01:01', 'A*02:01'] } },
    });
    expect(matchRes.statusCode).toBe(200);

    redis = startRedis(port);
    await eventually(async () => expect((await submit()).statusCode).toBe(202), 15_000, 200);
  });

  it('starts without Redis (503) and takes jobs once Redis appears', async () => {
    const laterPort = await freePort();
    const late = new QueueJobService(
      testJobsConfig({ REDIS_URL: `redis://127.0.0.1:${laterPort}`, HLA_SERVICE_REDIS_PREFIX: 'outage-late:', HLA_SERVICE_QUEUE_TIMEOUT_MS: '500' }),
    );
    const lateApp = await testApp({ jobs: late });
    let lateRedis: ChildProcess | undefined;
    try {
      const post = () =>
        lateApp.inject({
          method: 'POST',
          url: `/v1/jobs/normalize?column=typing&callback_url=${encodeURIComponent(receiver.url)}`,
          payload: csv,
          headers: { 'content-type': 'text/csv' },
        });
      expect((await post()).statusCode).toBe(503);
      lateRedis = startRedis(laterPort);
      await eventually(async () => expect((await post()).statusCode).toBe(202), 15_000, 200);
    } finally {
      await lateApp.close();
      await late.close();
      if (lateRedis) await stopRedis(lateRedis);
    }
  });
});
