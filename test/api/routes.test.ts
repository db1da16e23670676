/** The routes over the real 3.65.0 release: bodies, statuses, errors and the OpenAPI document. */
import type { TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../src/nomenclature/engine-types.ts';
import { matchOperation, normalizeOperation, verifyOperation } from '../../src/operations/index.ts';
import {
  AlleleFacts,
  HealthResponse,
  MatchResponse,
  NormalizeResponse,
  VerifyResponse,
} from '../../src/operations/schemas.ts';
import { brokenCatalog, testApp, testCatalog } from './helpers.ts';

let app: FastifyInstance;
let engine: Engine;

beforeAll(async () => {
  engine = (await testCatalog()).defaultEngine;
  app = await testApp({ env: { HLA_SERVICE_ANON_RPM: 'unlimited' } });
});
afterAll(() => app.close());

function expectSchema(schema: TSchema, body: unknown): void {
  const errors = [...Value.Errors(schema, body)].map((e) => `${e.path}: ${e.message}`);
  expect(errors).toEqual([]);
}

const MATCH_BODY = {
  framework: '8/8',
  recipient: { A: ['A*01:01', 'A*01:01'], B: ['B*08:01', 'B*07:02'], C: ['C*07:01', 'C*07:02'], DRB1: ['DRB1*03:01', 'DRB1*15:01'] },
  donor: { A: ['A*01:01', 'A*02:01'], B: ['B*08:01', 'B*07:02'], C: ['C*07:01', 'C*07:02'], DRB1: ['DRB1*03:01', 'DRB1*15:01'] },
};

describe('operations over HTTP answer exactly what the operations (and so the CLI) return', () => {
  it('POST /v1/verify', async () => {
    const text = 'Typed A*02:01, HLA-A*24:02 and B*99:99; A*02:01:01G; Cw*0702; DRB1*15:13.';
    const res = await app.inject({ method: 'POST', url: '/v1/verify', payload: { text } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.json()).toEqual(verifyOperation(engine, { text }));
    expect(res.json()).toMatchObject({ release: '3.65.0', clean: false });
    expect(res.json().attribution).toMatch(/IPD-IMGT\/HLA/);
    expectSchema(VerifyResponse, res.json());
  });

  it('POST /v1/verify takes 200,000 characters', async () => {
    const text = 'A*02:01 and B*07:02 '.repeat(10_000);
    expect(text.length).toBe(200_000);
    const res = await app.inject({ method: 'POST', url: '/v1/verify', payload: { text } });
    expect(res.statusCode).toBe(200);
    expect(res.json().counts.valid).toBe(2);
  });

  it('POST /v1/normalize', async () => {
    const typings = ['A*0101', 'Cw*0702', 'DRB1*15:13', 'A*02:XX', 'B*99:99', 'A*01:01:01:02N'];
    const res = await app.inject({ method: 'POST', url: '/v1/normalize', payload: { typings } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(normalizeOperation(engine, { typings }));
    expect(res.json().rows).toHaveLength(typings.length);
    expectSchema(NormalizeResponse, res.json());
  });

  it('POST /v1/normalize takes 5,000 typings', async () => {
    const typings = Array.from({ length: 5_000 }, (_, i) => (i % 2 ? 'A*02:01' : 'B*0702'));
    const res = await app.inject({ method: 'POST', url: '/v1/normalize', payload: { typings } });
    expect(res.statusCode).toBe(200);
    expect(res.json().rows).toHaveLength(5_000);
  });

  it('POST /v1/match', async () => {
    const res = await app.inject({ method: 'POST', url: '/v1/match', payload: MATCH_BODY });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(matchOperation(engine, MATCH_BODY));
    expect(res.json()).toMatchObject({ count: '7/8', hvg_mismatches: 1, gvh_mismatches: 0 });
    expectSchema(MatchResponse, res.json());
  });

  it('GET /healthz', async () => {
    const res = await app.inject({ url: '/healthz' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ ok: true, release: '3.65.0', alleles: 46652 });
    expect(Number.isInteger(body.uptime_s)).toBe(true);
    expect(body.missing_optional_files).toEqual([...engine.missingOptional]);
    expectSchema(HealthResponse, body);
  });
});

describe('GET /v1/allele/{name}', () => {
  it.each([
    ['/v1/allele/A*01:01:01:01', 'A*01:01:01:01'],
    ['/v1/allele/A%2A01%3A01%3A01%3A01', 'A*01:01:01:01'],
    ['/v1/allele/A%2a01%3a01%3a01%3a01', 'A*01:01:01:01'],
    ['/v1/allele/A*01%3A01:01:01', 'A*01:01:01:01'],
    ['/v1/allele/HLA-A*01:01:01:01', 'HLA-A*01:01:01:01'],
  ])('%s is the name %s, encoded or not', async (url, name) => {
    const res = await app.inject({ url });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ...(engine.lookup(name) as { facts: object }).facts });
    expect(res.json().status).toBe('assigned');
  });

  it.each(['A*01:01', 'A*02:01:01G', 'DRB1*15:13', 'A*0101', 'Cw*0702', 'A*02:XX', 'A*02:AB', 'A*02:01g', 'B*1308Q'])(
    'answers %s in the documented shape',
    async (name) => {
      const res = await app.inject({ url: `/v1/allele/${encodeURIComponent(name)}` });
      expect(res.statusCode).toBe(200);
      expect(res.json().release).toBe('3.65.0');
      expectSchema(AlleleFacts, res.json());
    },
  );

  it('404 carries the lookup detail for an unknown or unparseable name', async () => {
    for (const name of ['A*99:99', 'not-a-name', 'A*01:01:01:01:01']) {
      const res = await app.inject({ url: `/v1/allele/${encodeURIComponent(name)}` });
      expect(res.statusCode).toBe(404);
      const lookup = engine.lookup(name);
      expect(lookup.found).toBe(false);
      expect(res.json()).toEqual({ detail: (lookup as { detail: string }).detail });
    }
  });
});

describe('errors: one shape, { detail }', () => {
  const post = (url: string, payload: string | object, contentType = 'application/json') =>
    app.inject({ method: 'POST', url, payload: typeof payload === 'string' ? payload : JSON.stringify(payload), headers: { 'content-type': contentType } });

  it('400 for malformed JSON', async () => {
    for (const payload of ['{"text":', '{text: 1}', 'nul', '{"__proto__": {"x": 1}, "text": "a"}']) {
      const res = await post('/v1/verify', payload);
      expect(res.statusCode).toBe(400);
      expect(res.json().detail).toMatch(/^Body is not valid JSON/);
    }
  });

  it('400 for a JSON content type with an empty body', async () => {
    const res = await post('/v1/verify', '');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ detail: 'Body is empty; send a JSON object' });
  });

  it('413 for a body over the limit', async () => {
    const res = await post('/v1/verify', { text: 'x'.repeat(3 * 1024 * 1024) });
    expect(res.statusCode).toBe(413);
    expect(res.json().detail).toMatch(/^Body is larger than \d+ bytes$/);
  });

  it('415 for any other content type', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/xml', 'nonsense']) {
      const res = await post('/v1/normalize', '{"typings":[]}', type);
      expect(res.statusCode, type).toBe(415);
      expect(res.json()).toEqual({ detail: 'Content-Type must be application/json' });
    }
  });

  it('415 for a body without a content type', async () => {
    const res = await app.inject({ method: 'POST', url: '/v1/verify', payload: Buffer.from('{"text":"A*01:01"}'), headers: { 'content-type': undefined } });
    expect(res.statusCode).toBe(415);
  });

  it('422 names the field and why', async () => {
    const res = await post('/v1/verify', { text: 'a'.repeat(200_001) });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({ detail: 'body/text must be at most 200000 characters' });
    const many = await post('/v1/normalize', { typings: Array(5_001).fill('A*01:01') });
    expect(many.json()).toEqual({ detail: 'body/typings must have at most 5000 items' });
    const match = await post('/v1/match', { recipient: { A: ['1', '2', '3', '4', '5'] }, donor: {} });
    expect(match.json()).toEqual({ detail: 'body/recipient/A must have at most 4 items' });
    const noBody = await app.inject({ method: 'POST', url: '/v1/verify' });
    expect(noBody.statusCode).toBe(422);
    expect(noBody.json()).toEqual({ detail: 'body must be a JSON object' });
  });

  it('422 from the matcher itself keeps its own detail', async () => {
    const res = await post('/v1/match', { recipient: { drb1: ['DRB1*15:01'] }, donor: {} });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json())).toEqual(['detail']);
  });

  it('404 for an unknown route', async () => {
    for (const url of ['/v1/nothing', '/v2/verify', '/v1/allele', '/nothing']) {
      const res = await app.inject({ url });
      expect(res.statusCode, url).toBe(404);
      expect(res.json()).toEqual({ detail: 'Unknown route; the API is described at /docs' });
    }
  });

  it('405 with Allow for a known path asked with another method', async () => {
    const cases: [string, string, string][] = [
      ['GET', '/v1/verify', 'POST'],
      ['DELETE', '/v1/normalize', 'POST'],
      ['PUT', '/v1/match', 'POST'],
      ['POST', '/v1/allele/A*01:01', 'GET, HEAD'],
      ['POST', '/healthz', 'GET, HEAD'],
      ['PATCH', '/v1/usage', 'GET, HEAD'],
    ];
    for (const [method, url, allow] of cases) {
      const res = await app.inject({ method: method as 'GET', url, payload: method === 'GET' ? undefined : 'garbage', headers: { 'content-type': 'text/plain' } });
      expect(res.statusCode, `${method} ${url}`).toBe(405);
      expect(res.headers.allow).toBe(allow);
      expect(res.json().detail).toBe(`Method not allowed on this path; allowed: ${allow}`);
    }
  });

  it('500 says nothing about internals', async () => {
    const broken = await testApp({
      catalog: brokenCatalog(await testCatalog(), 'engine exploded at /srv/secret/path'),
      env: { HLA_SERVICE_ANON_RPM: 'unlimited' },
    });
    for (const [url, payload] of [
      ['/v1/verify', { text: 'A*01:01' }],
      ['/v1/normalize', { typings: ['A*01:01'] }],
    ] as const) {
      const res = await broken.inject({ method: 'POST', url, payload });
      expect(res.statusCode).toBe(500);
      expect(res.json()).toEqual({ detail: 'Internal error; nothing was stored.' });
    }
    const lookup = await broken.inject({ url: '/v1/allele/A*01:01' });
    expect(lookup.statusCode).toBe(500);
    expect(lookup.body).not.toContain('secret');
    await broken.close();
  });
});

describe('response headers', () => {
  it('carry a request id (the caller’s when it is a plain token) and nosniff', async () => {
    const own = await app.inject({ url: '/healthz', headers: { 'x-request-id': 'trace-123' } });
    expect(own.headers['x-request-id']).toBe('trace-123');
    const odd = await app.inject({ url: '/healthz', headers: { 'x-request-id': 'A*02:01 <script>' } });
    expect(odd.headers['x-request-id']).toMatch(/^req-/);
    expect(odd.headers['x-content-type-options']).toBe('nosniff');
  });
});

describe('OpenAPI document and docs', () => {
  it('is OpenAPI 3, version 1.0.0, generated from the schemas, at /docs/json and /openapi.json', async () => {
    const res = await app.inject({ url: '/docs/json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(doc.info.version).toBe('1.0.0');
    expect(Object.keys(doc.paths).sort()).toEqual(
      ['/healthz', '/v1/allele/{name}', '/v1/match', '/v1/normalize', '/v1/release-diff', '/v1/usage', '/v1/verify'],
    );
    // Hidden: the demo page, /openapi.json and the generated 405 routes.
    const verifyBody = doc.paths['/v1/verify'].post.requestBody.content['application/json'].schema;
    expect(verifyBody.properties.text.maxLength).toBe(200_000);
    expect(doc.paths['/v1/normalize'].post.requestBody.content['application/json'].schema.properties.typings.maxItems).toBe(5_000);
    expect(doc.paths['/v1/verify'].post.responses).toHaveProperty(['422']);
    expect(doc.components.securitySchemes).toMatchObject({
      ApiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
      Bearer: { type: 'http', scheme: 'bearer' },
    });
    expect(doc.paths['/healthz'].get.security).toEqual([]);
    const same = await app.inject({ url: '/openapi.json' });
    expect(same.json()).toEqual(doc);
  });

  it('serves Swagger UI at /docs from the app itself', async () => {
    const page = await app.inject({ url: '/docs' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('swagger-ui');
    expect(page.body).not.toMatch(/https?:\/\/(cdn|unpkg)/);
  });
});

describe('demo page', () => {
  it('is served at / with its assets and the disclaimer, no external resources', async () => {
    const page = await app.inject({ url: '/' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['content-security-policy']).toContain("default-src 'none'");
    expect(page.body).toContain('research and evaluation tool, not a medical device');
    expect(page.body).not.toMatch(/(src|href)="https?:/);
    for (const asset of ['/demo/demo.js', '/demo/demo.css']) {
      const res = await app.inject({ url: asset });
      expect(res.statusCode).toBe(200);
      expect(res.body).not.toMatch(/https?:\/\//);
    }
  });
});
