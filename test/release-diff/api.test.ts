/**
 * GET/POST /v1/release-diff through the real app (auth hooks, validation, error handler) and the
 * genuine releases: a key pinned to 3.58.0 asks for the diff to 3.65.0.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/api/app.ts';
import { MAX_DIFF_NAMES, releaseDiffRoutes } from '../../src/api/routes/release-diff.ts';
import { loadConfig } from '../../src/config.ts';
import { listedChanges } from '../../src/release-diff/csv.ts';
import { diffReleases } from '../../src/release-diff/diff.ts';
import type { ReleaseDiff } from '../../src/release-diff/types.ts';
import { loadTestCatalog, loadTestEngine } from '../support/engine.ts';

const OLD_KEY = 'pinned-to-3-58-key';
const NEW_KEY = 'default-release-key';

let app: FastifyInstance;

beforeAll(async () => {
  const catalog = await loadTestCatalog();
  const config = loadConfig({
    HLA_SERVICE_API_KEYS: `${OLD_KEY};label=lab-old;tag=v3.58.0-alpha,${NEW_KEY};label=lab-new`,
    LOG_LEVEL: 'silent',
  });
  app = await buildApp({ catalog, config });
  // Until src/api/app.ts registers the plugin itself.
  if (!app.hasRoute({ method: 'GET', url: '/v1/release-diff' })) {
    await app.register(releaseDiffRoutes, { ctx: { catalog } });
  }
  await app.ready();
});

afterAll(async () => {
  await app?.close();
});

const asKey = (key: string) => ({ 'x-api-key': key });

describe('GET /v1/release-diff', () => {
  it('diffs the key’s pinned release against the loaded one asked for', async () => {
    const response = await app.inject({ method: 'GET', url: '/v1/release-diff?to=3.65.0', headers: asKey(OLD_KEY) });
    expect(response.statusCode).toBe(200);
    const body = response.json() as ReleaseDiff;
    expect([body.from, body.to, body.scope]).toEqual(['3.58.0', '3.65.0', 'known_names']);
    const expected = diffReleases(await loadTestEngine('3.58.0'), await loadTestEngine('3.65.0'));
    expect(body.summary).toEqual(expected.summary);
    expect(body.changes.status.find((change) => change.name === 'C*15:05:02:02')?.to).toMatchObject({
      status: 'deleted',
      successor: 'C*15:05:02:01',
    });
  });

  it('accepts the tag as well as the version, and runs the other way for a key on the default release', async () => {
    const response = await app.inject({
      method: 'GET',
      url: '/v1/release-diff?to=v3.58.0-alpha',
      headers: { authorization: `Bearer ${NEW_KEY}` },
    });
    expect(response.statusCode).toBe(200);
    const body = response.json() as ReleaseDiff;
    expect([body.from, body.to]).toEqual(['3.65.0', '3.58.0']);
    const deleted = body.changes.status.find((change) => change.name === 'C*15:05:02:02');
    expect([deleted?.from.status, deleted?.to.status]).toEqual(['deleted', 'valid']);
  });

  it('is empty against the key’s own release', async () => {
    const response = await app.inject({ method: 'GET', url: '/v1/release-diff?to=3.58.0', headers: asKey(OLD_KEY) });
    expect(response.statusCode).toBe(200);
    expect((response.json() as ReleaseDiff).summary.names_changed).toBe(0);
  });

  it('answers 401 to anonymous callers', async () => {
    const response = await app.inject({ method: 'GET', url: '/v1/release-diff?to=3.65.0' });
    expect(response.statusCode).toBe(401);
    expect(response.json().detail).toMatch(/key/);
  });

  it('answers 401 to an unrecognized key', async () => {
    const response = await app.inject({ method: 'GET', url: '/v1/release-diff?to=3.65.0', headers: asKey('nope') });
    expect(response.statusCode).toBe(401);
  });

  it('answers 422 listing the loaded releases for a release that is not loaded, without echoing it', async () => {
    const response = await app.inject({ method: 'GET', url: '/v1/release-diff?to=3.61.0', headers: asKey(OLD_KEY) });
    expect(response.statusCode).toBe(422);
    const { detail } = response.json() as { detail: string };
    expect(detail).toBe(
      'querystring/to is not a loaded release; loaded releases: 3.58.0 (v3.58.0-alpha), 3.65.0 (v3.65.0-alpha)',
    );
  });

  it('answers 422 without `to`', async () => {
    const response = await app.inject({ method: 'GET', url: '/v1/release-diff', headers: asKey(OLD_KEY) });
    expect(response.statusCode).toBe(422);
    expect(response.json().detail).toMatch(/^querystring\/to/);
  });
});

describe('POST /v1/release-diff', () => {
  it('diffs only the caller’s names', async () => {
    const names = ['C*15:05:02:02', 'A*01:01:01:01', 'Cw*0409N', 'B*35:32:03'];
    const response = await app.inject({
      method: 'POST',
      url: '/v1/release-diff',
      headers: asKey(OLD_KEY),
      payload: { to: '3.65.0', names },
    });
    expect(response.statusCode).toBe(200);
    const body = response.json() as ReleaseDiff;
    expect(body.scope).toBe('given_names');
    expect(body.summary.names_compared).toBe(4);
    expect(listedChanges(body).map((change) => change.name)).toEqual(['B*35:32:03', 'C*15:05:02:02', 'Cw*0409N']);
    expect(body).toEqual(diffReleases(await loadTestEngine('3.58.0'), await loadTestEngine('3.65.0'), { names }));
  });

  it('answers 401 to anonymous callers', async () => {
    const response = await app.inject({ method: 'POST', url: '/v1/release-diff', payload: { to: '3.65.0', names: [] } });
    expect(response.statusCode).toBe(401);
  });

  it(`answers 422 for more than ${MAX_DIFF_NAMES} names`, async () => {
    const names = Array.from({ length: MAX_DIFF_NAMES + 1 }, (_, k) => `A*01:${String(k).padStart(2, '0')}`);
    const response = await app.inject({
      method: 'POST',
      url: '/v1/release-diff',
      headers: asKey(OLD_KEY),
      payload: { to: '3.65.0', names },
    });
    expect(response.statusCode).toBe(422);
    expect(response.json().detail).toMatch(/^body\/names/);
  });

  it('answers 422 for a wrong shape and for a release that is not loaded', async () => {
    for (const payload of [{ to: '3.65.0' }, { to: '3.65.0', names: 'A*01:01' }, { names: [] }, { to: '3.65.0', names: [], x: 1 }]) {
      const response = await app.inject({ method: 'POST', url: '/v1/release-diff', headers: asKey(OLD_KEY), payload });
      expect(response.statusCode, JSON.stringify(payload)).toBe(422);
    }
    const response = await app.inject({
      method: 'POST',
      url: '/v1/release-diff',
      headers: asKey(OLD_KEY),
      payload: { to: 'v3.40.0-alpha', names: ['A*01:01'] },
    });
    expect(response.statusCode).toBe(422);
    expect(response.json().detail).toMatch(/^body\/to is not a loaded release; loaded releases: 3\.58\.0/);
  });
});

describe('OpenAPI document', () => {
  it('describes both routes, keyed only', async () => {
    const response = await app.inject({ method: 'GET', url: '/openapi.json' });
    expect(response.statusCode).toBe(200);
    const path = response.json().paths['/v1/release-diff'];
    expect(Object.keys(path).sort()).toEqual(['get', 'post']);
    expect(path.get.security).toEqual([{ ApiKey: [] }, { Bearer: [] }]);
    expect(path.post.requestBody.content['application/json'].schema.properties.names.maxItems).toBe(MAX_DIFF_NAMES);
  });
});
