/** Keys, anonymous access, per-minute limits, metering and per-key release pins (in memory). */
import { connect, type AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { awayFromMinuteBoundary, testApp } from './helpers.ts';

const KEYS = [
  'alpha-key-0001;label=alpha',
  'beta-key-0002;label=beta;rpm=3',
  'old-key-0003;label=old;tag=v3.58.0-alpha',
].join(',');

const verify = { method: 'POST' as const, url: '/v1/verify', payload: { text: 'A*02:01' } };

async function eventually(check: () => Promise<void>, timeoutMs = 2_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    try {
      await check();
      return;
    } catch (error) {
      if (Date.now() > until) throw error;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}

beforeEach(() => awayFromMinuteBoundary());

function rawRequest(port: number, request: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let response = '';
    socket.on('data', (chunk) => (response += String(chunk)));
    socket.on('close', () => resolve(response));
    socket.end(request);
  });
}

describe('keys', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await testApp({ env: { HLA_SERVICE_API_KEYS: KEYS, HLA_SERVICE_ANON_RPM: '3' } });
  });
  afterAll(() => app.close());

  it('accepts X-API-Key and Authorization: Bearer', async () => {
    for (const headers of [{ 'x-api-key': 'alpha-key-0001' }, { authorization: 'Bearer alpha-key-0001' }, { authorization: 'bearer alpha-key-0001' }]) {
      const res = await app.inject({ ...verify, headers });
      expect(res.statusCode).toBe(200);
    }
  });

  it('answers 401 for an unrecognized key, whatever the anonymous policy', async () => {
    for (const headers of [
      { 'x-api-key': 'alpha-key-0002' },
      { 'x-api-key': '' },
      { authorization: 'Bearer nope' },
      { authorization: 'Basic YWxwaGE6a2V5' },
      { authorization: 'Bearer' },
    ]) {
      const res = await app.inject({ ...verify, headers });
      expect(res.statusCode, JSON.stringify(headers)).toBe(401);
      expect(Object.keys(res.json())).toEqual(['detail']);
    }
  });

  it('checks the key before the body: 401 comes before 400/415/422', async () => {
    const res = await app.inject({ method: 'POST', url: '/v1/verify', payload: '{', headers: { 'content-type': 'text/plain', 'x-api-key': 'wrong' } });
    expect(res.statusCode).toBe(401);
  });

  it('lets anonymous callers in at 60/min by default when keys are configured', async () => {
    const other = await testApp({ env: { HLA_SERVICE_API_KEYS: KEYS } });
    const res = await other.inject(verify);
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-ratelimit-limit']).toBe('60');
    await other.close();
  });

  it('keyed callers without an rpm have no cap', async () => {
    for (let i = 0; i < 10; i++) {
      const res = await app.inject({ ...verify, headers: { 'x-api-key': 'alpha-key-0001' }, remoteAddress: '10.9.9.9' });
      expect(res.statusCode).toBe(200);
      expect(res.headers['x-ratelimit-limit']).toBeUndefined();
    }
  });

  it('a key with an rpm gets 429 with Retry-After past it', async () => {
    const statuses: number[] = [];
    let last;
    for (let i = 0; i < 5; i++) {
      last = await app.inject({ ...verify, headers: { 'x-api-key': 'beta-key-0002' } });
      statuses.push(last.statusCode);
    }
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    const retryAfter = Number(last!.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(last!.json().detail).toMatch(/^Rate limit of 3 requests per minute exceeded; retry after \d+ s$/);
  });

  it('anonymous callers are limited per IP', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await app.inject({ ...verify, remoteAddress: '10.0.0.1' })).statusCode);
    expect(statuses).toEqual([200, 200, 200, 429]);
    const limited = await app.inject({ ...verify, remoteAddress: '10.0.0.1' });
    expect(limited.headers['retry-after']).toMatch(/^\d+$/);
    // Another address has its own count; /healthz, /docs and the demo page are never limited.
    expect((await app.inject({ ...verify, remoteAddress: '10.0.0.2' })).statusCode).toBe(200);
    for (let i = 0; i < 5; i++) {
      for (const url of ['/healthz', '/docs/json', '/']) {
        expect((await app.inject({ url, remoteAddress: '10.0.0.1' })).statusCode).toBe(200);
      }
    }
  });
});

describe('anonymous access off', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await testApp({ env: { HLA_SERVICE_API_KEYS: KEYS, HLA_SERVICE_ANON_RPM: 'off' } });
  });
  afterAll(() => app.close());

  it('requires a key on every /v1 route', async () => {
    for (const request of [verify, { url: '/v1/allele/A*01:01' }, { url: '/v1/usage' }, { method: 'DELETE' as const, url: '/v1/verify' }]) {
      const res = await app.inject(request);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ detail: 'API key required: send X-API-Key: <key> or Authorization: Bearer <key>' });
    }
    expect((await app.inject({ ...verify, headers: { 'x-api-key': 'alpha-key-0001' } })).statusCode).toBe(200);
    expect((await app.inject({ url: '/v1/nothing' })).statusCode).toBe(404); // nothing there to protect
  });

  it('cannot be bypassed by URL spellings that still reach a /v1 route', async () => {
    await app.listen({ host: '127.0.0.1', port: 0 });
    const port = (app.server.address() as AddressInfo).port;
    for (const target of ['http://127.0.0.1/v1/allele/A*01:01', '/%76%31/allele/A*01:01', '/v%31/allele/A*01:01']) {
      const response = await rawRequest(port, `GET ${target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
      expect(response, target).toMatch(/^HTTP\/1\.1 (401|404) /);
    }
  });

  it('keeps /healthz, /docs and the demo page open', async () => {
    for (const url of ['/healthz', '/docs', '/docs/json', '/openapi.json', '/']) {
      expect((await app.inject({ url })).statusCode, url).toBe(200);
    }
  });
});

describe('open demo mode (no keys configured)', () => {
  it('serves anonymous callers and rejects any key', async () => {
    const app = await testApp({ env: { HLA_SERVICE_ANON_RPM: 'unlimited' } });
    expect((await app.inject(verify)).statusCode).toBe(200);
    expect((await app.inject({ ...verify, headers: { 'x-api-key': 'alpha-key-0001' } })).statusCode).toBe(401);
    await app.close();
  });
});

describe('usage metering', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await testApp({ env: { HLA_SERVICE_API_KEYS: KEYS } });
  });
  afterAll(() => app.close());

  const asAlpha = { 'x-api-key': 'alpha-key-0001' };

  it('counts successful calls per key, operation and UTC day; never for anonymous callers', async () => {
    await app.inject({ ...verify, headers: asAlpha });
    await app.inject({ ...verify, headers: asAlpha });
    await app.inject({ method: 'POST', url: '/v1/normalize', payload: { typings: ['A*01:01'] }, headers: asAlpha });
    await app.inject({ url: '/v1/allele/A*01:01', headers: asAlpha });
    await app.inject({ url: '/v1/allele/A*99:99', headers: asAlpha }); // 404: not counted
    await app.inject({ method: 'POST', url: '/v1/verify', payload: { text: 1 }, headers: asAlpha }); // 422
    await app.inject({ method: 'POST', url: '/v1/match', payload: { recipient: { A: ['A*01:01'] }, donor: { A: ['A*01:01'] } }, headers: asAlpha });
    await app.inject(verify); // anonymous
    await app.inject({ ...verify, headers: { 'x-api-key': 'old-key-0003' } });

    const today = new Date().toISOString().slice(0, 10);
    await eventually(async () => {
      const res = await app.inject({ url: '/v1/usage', headers: asAlpha });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        release: '3.65.0',
        label: 'alpha',
        days: [{ date: today, counts: { verify: 2, normalize: 1, allele: 1, match: 1 } }],
        totals: { verify: 2, normalize: 1, allele: 1, match: 1 },
      });
    });
    const old = await app.inject({ url: '/v1/usage?days=1', headers: { 'x-api-key': 'old-key-0003' } });
    expect(old.json()).toMatchObject({ label: 'old', release: '3.58.0', totals: { verify: 1 } });
  });

  it('is for keyed callers only, with a validated days parameter', async () => {
    expect((await app.inject({ url: '/v1/usage' })).statusCode).toBe(401);
    for (const query of ['days=0', 'days=367', 'days=abc', 'days=1&x=1']) {
      const res = await app.inject({ url: `/v1/usage?${query}`, headers: asAlpha });
      expect(res.statusCode, query).toBe(422);
      expect(res.json().detail).toMatch(/^querystring/);
    }
  });
});

describe('per-key release pin', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await testApp({ env: { HLA_SERVICE_API_KEYS: KEYS, HLA_SERVICE_ANON_RPM: 'unlimited' } });
  });
  afterAll(() => app.close());
  const asOld = { 'x-api-key': 'old-key-0003' };

  it('answers a pinned key from its release, everyone else from the default', async () => {
    const pinned = await app.inject({ ...verify, headers: asOld });
    expect(pinned.json().release).toBe('3.58.0');
    expect(pinned.json().attribution).toContain('3.58.0');
    expect((await app.inject(verify)).json().release).toBe('3.65.0');
    expect((await app.inject({ ...verify, headers: { 'x-api-key': 'alpha-key-0001' } })).json().release).toBe('3.65.0');
    for (const request of [
      { method: 'POST' as const, url: '/v1/normalize', payload: { typings: ['A*01:01'] } },
      { method: 'POST' as const, url: '/v1/match', payload: { recipient: {}, donor: {} } },
      { method: 'GET' as const, url: '/v1/allele/A*01:01:01:01' },
    ]) {
      const res = await app.inject({ ...request, headers: asOld });
      expect(res.statusCode).toBe(200);
      expect(res.json().release).toBe('3.58.0');
    }
  });

  it('shows the key’s release on /healthz; a bad key there is ignored, not 401', async () => {
    const pinned = await app.inject({ url: '/healthz', headers: asOld });
    expect(pinned.json()).toMatchObject({ release: '3.58.0', alleles: 41433 });
    const stranger = await app.inject({ url: '/healthz', headers: { 'x-api-key': 'nobody' } });
    expect(stranger.statusCode).toBe(200);
    expect(stranger.json()).toMatchObject({ release: '3.65.0', alleles: 46652 });
  });

  it('a 404 of a pinned key names its release', async () => {
    const res = await app.inject({ url: '/v1/allele/A*99:99', headers: asOld });
    expect(res.json()).toEqual({ detail: "'A*99:99' is not assigned in release 3.58.0" });
  });
});
