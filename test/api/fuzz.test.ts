/**
 * No input may produce a 5xx or crash the process: random methods, paths, content types,
 * headers and bodies (random JSON, near-valid bodies, allele-shaped names of every era) against
 * the real release, through `inject` and, for malformed HTTP, over a real socket.
 */
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp } from './helpers.ts';

let app: FastifyInstance;
beforeAll(async () => {
  app = await testApp({ env: { HLA_SERVICE_API_KEYS: 'fuzz-key-1;label=fuzz;tag=v3.58.0-alpha', HLA_SERVICE_ANON_RPM: 'unlimited' } });
});
afterAll(() => app.close());

// ---- generators --------------------------------------------------------------------------------

const digits = (min: number, max: number) => fc.stringMatching(new RegExp(`^[0-9]{${min},${max}}$`));
const locus = fc.constantFrom('A', 'B', 'C', 'Cw', 'cw', 'DRB1', 'DQB1', 'DPB1', 'DRB3', 'MICA', 'HLA-A', 'KIR2DL1', '2DS4', 'X', '');
const suffix = fc.constantFrom('', '', '', 'N', 'L', 'S', 'Q', 'C', 'A', 'G', 'P', 'g', 'XX', ':XX', ':AB', ':BNDC', ':', 'n');
/** Names of every era and shape: current, prefixes, legacy colon-less, groups, MAC, XX, junk. */
const alleleName = fc.oneof(
  fc
    .tuple(locus, fc.array(digits(1, 4), { minLength: 1, maxLength: 5 }), suffix)
    .map(([l, fields, s]) => `${l}*${fields.join(':')}${s}`),
  fc.tuple(locus, digits(3, 9), suffix).map(([l, d, s]) => `${l}*${d}${s}`),
  fc.constantFrom('A*01:01:01:01', 'A*0101', 'Cw*0702', 'DRB1*15:13', 'A*02:XX', 'A*02:AB', 'A*02:01g', 'A*02:01:01G', 'B*1308Q', 'A*2401', 'A*01011', 'HLA-DRB1*04:BNDC'),
  fc.string({ maxLength: 30 }),
  fc.string({ unit: 'binary', maxLength: 30 }),
);

const typing = fc.dictionary(
  fc.oneof(fc.constantFrom('A', 'B', 'C', 'Cw', 'DRB1', 'DQB1', 'DPB1', 'HLA-A', 'A*', 'drb1', '__proto__', 'constructor'), fc.string({ maxLength: 8 })),
  fc.oneof(fc.array(alleleName, { maxLength: 5 }), fc.anything()),
  { maxKeys: 8 },
);

const nearValidBody = fc.oneof(
  fc.record({ text: fc.array(alleleName, { maxLength: 20 }).map((names) => names.join(fc.sample(fc.constantFrom(' ', '/', ', ', '\n', '+', ''), 1)[0])) }),
  fc.record({ text: fc.string({ unit: 'binary', maxLength: 300 }) }),
  fc.record({ typings: fc.array(alleleName, { maxLength: 20 }) }),
  fc.record({ framework: fc.oneof(fc.constantFrom('6/6', '8/8', '10/10', '12/12', 'antigen'), fc.anything()), recipient: typing, donor: typing }, { requiredKeys: [] }),
  fc.record({ recipient: typing, donor: typing }),
);

const body = fc.oneof(
  nearValidBody.map((value) => JSON.stringify(value)),
  fc.json({ maxDepth: 3 }),
  fc.anything().map((value) => JSON.stringify(value) ?? 'null'),
  fc.string({ maxLength: 200 }),
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc.constant(''),
);

const knownPath = fc.constantFrom('/v1/verify', '/v1/normalize', '/v1/match', '/v1/usage', '/healthz', '/', '/openapi.json', '/v1', '/v1/', '/v1/allele/');
const path = fc.oneof(
  knownPath,
  knownPath,
  alleleName.map((name) => `/v1/allele/${encodeURIComponent(name)}`),
  alleleName.filter((name) => /^[\x21-\x7e]*$/.test(name) && !/[?#]/.test(name)).map((name) => `/v1/allele/${name}`),
  fc.constantFrom('/v1/allele/%', '/v1/allele/%ZZ', '/v1/allele/%00', '/v1/allele/%E0%A4%A', '/v1/allele/a/b', '/v1/../healthz', '//v1/verify', '/v1/verify?x=%', '/%2e%2e/', '/docs/static/../../package.json', '/v1/allele/' + 'A'.repeat(5_000)),
  fc.webPath().map((p) => (p.startsWith('/') ? p : `/${p}`)),
  fc.string({ maxLength: 40 }).map((s) => `/${encodeURIComponent(s)}`),
);

const method = fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD');
const contentType = fc.option(
  fc.constantFrom(
    'application/json',
    'application/json; charset=utf-8',
    'application/json; charset=latin1',
    'APPLICATION/JSON',
    'application/json;',
    'text/plain',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=--x',
    'application/vnd.api+json',
    '*/*',
    ';;',
    'json',
  ),
  { nil: undefined },
);
const headerValue = fc.stringMatching(/^[\x20-\x7e]{0,60}$/);
const headers = fc.record(
  {
    'x-api-key': fc.oneof(headerValue, fc.constant('fuzz-key-1')),
    authorization: fc.oneof(headerValue, headerValue.map((v) => `Bearer ${v}`), fc.constant('Bearer fuzz-key-1')),
    'x-request-id': headerValue,
    accept: fc.constantFrom('*/*', 'text/html', 'application/xml'),
  },
  { requiredKeys: [] },
);

// ---- properties --------------------------------------------------------------------------------

function expectClientOutcome(status: number, rawBody: string, requestMethod: string): void {
  expect(status).toBeLessThan(500);
  if (status >= 400 && requestMethod !== 'HEAD') {
    const parsed = JSON.parse(rawBody) as Record<string, unknown>;
    expect(Object.keys(parsed)).toEqual(['detail']);
    expect(typeof parsed.detail).toBe('string');
  }
}

describe('fuzzing the routes', () => {
  it('answers random requests with < 500 and { detail } errors', async () => {
    await fc.assert(
      fc.asyncProperty(method, path, contentType, body, headers, async (m, url, type, payload, extraHeaders) => {
        const res = await app.inject({
          method: m as 'GET',
          url,
          headers: { ...extraHeaders, ...(type === undefined ? {} : { 'content-type': type }) },
          payload: m === 'GET' || m === 'HEAD' ? undefined : payload,
        });
        expectClientOutcome(res.statusCode, res.body, m);
      }),
      { numRuns: 1_500 },
    );
  });

  it('answers every near-valid body of every operation with 200 or 422', async () => {
    const route = fc.constantFrom('/v1/verify', '/v1/normalize', '/v1/match');
    const asKey = fc.boolean();
    await fc.assert(
      fc.asyncProperty(route, nearValidBody, asKey, async (url, payload, keyed) => {
        const res = await app.inject({ method: 'POST', url, payload, headers: keyed ? { 'x-api-key': 'fuzz-key-1' } : {} });
        // 400 only for keys refused as prototype poisoning (`__proto__`), which the generator makes.
        const poisoned = /"__proto__"|"constructor":\{[^}]*"prototype"/.test(JSON.stringify(payload));
        expect(poisoned ? [200, 400, 422] : [200, 422]).toContain(res.statusCode);
        expectClientOutcome(res.statusCode, res.body, 'POST');
      }),
      { numRuns: 1_500 },
    );
  });

  it('answers every allele-shaped name with 200 or 404', async () => {
    await fc.assert(
      fc.asyncProperty(alleleName, async (name) => {
        const res = await app.inject({ url: `/v1/allele/${encodeURIComponent(name)}` });
        expect([200, 404]).toContain(res.statusCode);
        expectClientOutcome(res.statusCode, res.body, 'GET');
      }),
      { numRuns: 1_500 },
    );
  });
});

describe('malformed HTTP over a real socket', () => {
  let port: number;
  let server: FastifyInstance;
  beforeAll(async () => {
    server = await testApp({ env: { HLA_SERVICE_ANON_RPM: 'unlimited' } });
    await server.listen({ host: '127.0.0.1', port: 0 });
    port = (server.server.address() as AddressInfo).port;
  });
  afterAll(() => server.close());

  function raw(request: string): Promise<string> {
    return new Promise((resolve) => {
      const socket = connect(port, '127.0.0.1');
      let response = '';
      socket.setTimeout(2_000, () => socket.destroy());
      socket.on('data', (chunk) => {
        response += String(chunk);
      });
      socket.on('close', () => resolve(response));
      socket.on('error', () => resolve(response));
      socket.end(request);
    });
  }

  it.each([
    ['content-length larger than the body', 'POST /v1/verify HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 50\r\n\r\n{"text":"a"}'],
    ['content-length smaller than the body', 'POST /v1/verify HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 3\r\nConnection: close\r\n\r\n{"text":"a"}'],
    ['broken chunked encoding', 'POST /v1/verify HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{"text"\r\n0\r\n\r\n'],
    ['oversized chunked body', `POST /v1/verify HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n${(3 * 1024 * 1024).toString(16)}\r\n${'a'.repeat(3 * 1024 * 1024)}\r\n0\r\n\r\n`],
    ['garbage request line', 'BLAH\r\n\r\n'],
    ['bad percent-encoding', 'GET /v1/allele/%E0%A4%A HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'],
    ['invalid header', 'GET /healthz HTTP/1.1\r\nHost: x\r\nBad Header: y\r\n\r\n'],
  ])('%s: no 5xx, and the server keeps answering', async (_name, request) => {
    const response = await raw(request);
    const status = /^HTTP\/1\.1 (\d{3})/.exec(response)?.[1];
    if (status !== undefined) {
      expect(Number(status)).toBeLessThan(500);
      if (Number(status) >= 400) expect(Object.keys(JSON.parse(response.slice(response.indexOf('\r\n\r\n') + 4)))).toEqual(['detail']);
    }
    const health = await fetch(`http://127.0.0.1:${port}/healthz`);
    expect(health.status).toBe(200);
  });
});
