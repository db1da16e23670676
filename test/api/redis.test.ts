/**
 * With REDIS_URL set, limits and usage counts are shared by every API process: two apps here
 * stand for two processes behind a balancer. Skipped when REDIS_URL is not set.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { awayFromMinuteBoundary, testApp } from './helpers.ts';

const REDIS_URL = process.env.REDIS_URL;
const KEYS = 'shared-key-1;label=shared;rpm=4,free-key-2;label=free';
const verify = { method: 'POST' as const, url: '/v1/verify', payload: { text: 'A*02:01' } };

describe.skipIf(!REDIS_URL)('Redis-backed limits and usage (REDIS_URL)', () => {
  const prefix = `hla-test-${randomUUID()}:`;
  let first: FastifyInstance;
  let second: FastifyInstance;
  let redis: Redis;

  beforeAll(async () => {
    const env = { REDIS_URL: REDIS_URL!, HLA_SERVICE_REDIS_PREFIX: prefix, HLA_SERVICE_API_KEYS: KEYS, HLA_SERVICE_ANON_RPM: '3' };
    first = await testApp({ env });
    second = await testApp({ env });
    redis = new Redis(REDIS_URL!);
  });

  afterAll(async () => {
    await first?.close();
    await second?.close();
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
  });

  beforeEach(() => awayFromMinuteBoundary());

  it('shares the anonymous per-IP limit between processes', async () => {
    const statuses: number[] = [];
    for (const app of [first, second, first, second, first]) {
      statuses.push((await app.inject({ ...verify, remoteAddress: '10.1.1.1' })).statusCode);
    }
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    const limited = await second.inject({ ...verify, remoteAddress: '10.1.1.1' });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect((await second.inject({ ...verify, remoteAddress: '10.1.1.2' })).statusCode).toBe(200);
  });

  it("shares a key's limit between processes", async () => {
    const statuses: number[] = [];
    for (const app of [first, second, first, second, first, second]) {
      statuses.push((await app.inject({ ...verify, headers: { 'x-api-key': 'shared-key-1' } })).statusCode);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
  });

  it('adds up usage from every process, and keeps only counts', async () => {
    const asFree = { 'x-api-key': 'free-key-2' };
    for (const app of [first, second, second]) await app.inject({ ...verify, headers: asFree });
    await first.inject({ method: 'POST', url: '/v1/normalize', payload: { typings: ['A*01:01'] }, headers: asFree });
    await second.inject({ url: '/v1/allele/A*01:01', headers: asFree });

    const today = new Date().toISOString().slice(0, 10);
    const until = Date.now() + 2_000;
    let body: unknown;
    do {
      body = (await first.inject({ url: '/v1/usage', headers: asFree })).json();
      if ((body as { totals?: { verify?: number } }).totals?.verify === 3) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    } while (Date.now() < until);
    expect(body).toEqual({
      release: '3.65.0',
      label: 'free',
      days: [{ date: today, counts: { verify: 3, normalize: 1, allele: 1 } }],
      totals: { verify: 3, normalize: 1, allele: 1 },
    });
    // What Redis holds: per-label, per-day hashes of counts; rate-limit counters. No names, no keys.
    const keys = await redis.keys(`${prefix}*`);
    const hashes = keys.filter((key) => key.startsWith(`${prefix}usage:`));
    expect(hashes).toContain(`${prefix}usage:free:${today}`);
    expect(await redis.hgetall(`${prefix}usage:free:${today}`)).toEqual({ verify: '3', normalize: '1', allele: '1' });
    const everything = JSON.stringify([keys, await Promise.all(hashes.map((key) => redis.hgetall(key)))]);
    expect(everything).not.toContain('free-key-2');
    expect(everything).not.toContain('A*');
  });

  it('lets requests through when Redis stops answering', async () => {
    const client = new Redis(REDIS_URL!, { enableOfflineQueue: false, maxRetriesPerRequest: 0, lazyConnect: true });
    client.on('error', () => {});
    await client.connect();
    const app = await testApp({
      redis: client,
      env: { REDIS_URL: REDIS_URL!, HLA_SERVICE_REDIS_PREFIX: prefix, HLA_SERVICE_API_KEYS: KEYS, HLA_SERVICE_ANON_RPM: '3' },
    });
    client.disconnect();
    for (let i = 0; i < 5; i++) {
      expect((await app.inject({ ...verify, headers: { 'x-api-key': 'shared-key-1' }, remoteAddress: '10.3.3.3' })).statusCode).toBe(200);
    }
    await app.close();
  });
});

describe('REDIS_URL pointing nowhere', () => {
  it('stops the start-up with a clear message', async () => {
    await expect(testApp({ env: { REDIS_URL: 'redis://127.0.0.1:1' } })).rejects.toThrow(
      'REDIS_URL is set but Redis does not answer there',
    );
  });
});
