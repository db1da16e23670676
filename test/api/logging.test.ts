/** Logs carry request ids, route patterns and key labels; never content, URLs or keys. */
import { describe, expect, it } from 'vitest';
import { brokenCatalog, capturingLogger, testApp, testCatalog } from './helpers.ts';

const KEY = 'sekrit-key-4242';
const MARKER = 'Patient-Jane-Doe';

describe('access log', () => {
  it('writes one JSON line per request with id, method, route pattern, status, time and key label', async () => {
    const { logger, lines, text } = capturingLogger();
    const app = await testApp({ logger, env: { HLA_SERVICE_API_KEYS: `${KEY};label=acme`, HLA_SERVICE_ANON_RPM: 'unlimited' } });
    const headers = { 'x-api-key': KEY, authorization: `Bearer ${KEY}`, 'x-request-id': 'trace-1' };
    await app.inject({ method: 'POST', url: '/v1/verify', payload: { text: `${MARKER} has A*02:01` }, headers });
    await app.inject({ method: 'POST', url: '/v1/normalize', payload: { typings: [MARKER, 'B*07:02'] }, headers });
    await app.inject({ method: 'POST', url: '/v1/match', payload: { recipient: { A: [MARKER] }, donor: {} }, headers });
    await app.inject({ url: `/v1/allele/DRB1*15:13?who=${MARKER}`, headers });
    await app.inject({ url: `/v1/allele/${MARKER}`, headers });
    await app.inject({ method: 'POST', url: '/v1/verify', payload: `{"text": "${MARKER}`, headers: { ...headers, 'content-type': 'application/json' } });
    await app.inject({ url: `/v1/${MARKER}`, headers });
    await app.inject({ url: `/v1/usage?days=${MARKER}`, headers });
    await app.inject({ method: 'POST', url: '/v1/verify', payload: { text: 'x' }, headers: { 'x-api-key': `${KEY}-wrong` } });
    await app.close();

    const logged = text();
    expect(logged).not.toContain(KEY);
    expect(logged).not.toContain(MARKER);
    expect(logged).not.toContain('DRB1*15:13');
    expect(logged).not.toContain('A*02:01');

    const requests = lines().filter((line) => line.msg === 'request');
    expect(requests).toHaveLength(9);
    expect(requests[0]).toMatchObject({ reqId: 'trace-1', method: 'POST', route: '/v1/verify', status: 200, caller: 'acme' });
    expect(typeof requests[0].ms).toBe('number');
    expect(requests[3]).toMatchObject({ route: '/v1/allele/:name', status: 200 });
    expect(requests[6]).toMatchObject({ route: '(unmatched)', status: 404 });
    expect(requests[8]).toMatchObject({ status: 401 });
  });

  it('logs a 500 with the error type and code locations, without its message', async () => {
    const { logger, lines, text } = capturingLogger();
    const app = await testApp({
      logger,
      catalog: brokenCatalog(await testCatalog(), `failed on ${MARKER}`),
      env: { HLA_SERVICE_ANON_RPM: 'unlimited' },
    });
    const res = await app.inject({ method: 'POST', url: '/v1/verify', payload: { text: MARKER } });
    expect(res.statusCode).toBe(500);
    await app.close();
    expect(text()).not.toContain(MARKER);
    const error = lines().find((line) => line.msg === 'internal error') as { err: { type: string; stack: string[] } };
    expect(error.err.type).toBe('TypeError');
    expect(error.err.stack.length).toBeGreaterThan(0);
  });

  it('warns at start when no key is configured (open demo mode)', async () => {
    const { logger, lines } = capturingLogger();
    const app = await testApp({ logger });
    await app.close();
    expect(lines()).toContainEqual(expect.objectContaining({ level: 40, msg: expect.stringContaining('open demo mode') }));
  });

  it('names configured keys by label only', async () => {
    const { logger, text } = capturingLogger();
    const app = await testApp({ logger, env: { HLA_SERVICE_API_KEYS: `${KEY};label=acme,other-key-77` } });
    await app.close();
    expect(text()).toContain('acme');
    expect(text()).not.toContain(KEY);
    expect(text()).not.toContain('other-key-77');
  });
});
