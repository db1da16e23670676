/**
 * The bulk-jobs routes (src/api/routes/jobs.ts) get the same keys, limits, metering and error
 * handling as the five operations. A fake job service stands in for the queue: the jobs' own
 * behaviour is tested under test/jobs.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { JobService, JobSubmission } from '../../src/jobs/types.ts';
import { awayFromMinuteBoundary, testApp } from './helpers.ts';

class FakeJobs implements JobService {
  readonly mode = 'embedded' as const;
  readonly maxBytes = 1024 * 1024;
  readonly allowPrivateCallbacks = true;
  readonly submitted: JobSubmission[] = [];
  async submit(submission: JobSubmission) {
    this.submitted.push(submission);
    return { jobId: '00000000-0000-4000-8000-000000000001' };
  }
  async status() {
    return null;
  }
  async close() {}
}

const CSV = 'typing\nA*01:01\nB*07:02\n';
const submit = (headers: Record<string, string> = {}) => ({
  method: 'POST' as const,
  url: '/v1/jobs/normalize?column=typing&callback_url=http://127.0.0.1:9/hook',
  payload: CSV,
  headers: { 'content-type': 'text/csv', ...headers },
});

describe('jobs routes under the /v1 hooks', () => {
  let app: FastifyInstance;
  const jobs = new FakeJobs();
  beforeAll(async () => {
    app = await testApp({
      jobs,
      env: { HLA_SERVICE_API_KEYS: 'job-key-1;label=lab,slow-key-2;label=slow;rpm=2', HLA_SERVICE_ANON_RPM: 'off' },
    });
  });
  afterAll(() => app.close());
  beforeEach(() => awayFromMinuteBoundary());

  it('requires a key when anonymous access is off, and rejects unknown keys', async () => {
    expect((await app.inject(submit())).statusCode).toBe(401);
    expect((await app.inject(submit({ 'x-api-key': 'nope' }))).statusCode).toBe(401);
    expect((await app.inject({ url: '/v1/jobs/00000000-0000-4000-8000-000000000001' })).statusCode).toBe(401);
  });

  it('accepts a keyed submission and meters it under the key label', async () => {
    const res = await app.inject(submit({ 'x-api-key': 'job-key-1' }));
    expect(res.statusCode).toBe(202);
    expect(jobs.submitted).toHaveLength(1);
    let usage;
    for (let i = 0; i < 50; i++) {
      usage = (await app.inject({ url: '/v1/usage', headers: { 'x-api-key': 'job-key-1' } })).json();
      if (usage.totals.jobs_normalize) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(usage.totals).toEqual({ jobs_normalize: 1 });
  });

  it("applies the key's per-minute limit", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await app.inject(submit({ 'x-api-key': 'slow-key-2' }))).statusCode);
    expect(statuses).toEqual([202, 202, 429]);
  });

  it('answers errors as { detail }, with 405 for a wrong method', async () => {
    const missing = await app.inject({ url: '/v1/jobs/00000000-0000-4000-8000-000000000009', headers: { 'x-api-key': 'job-key-1' } });
    expect(missing.statusCode).toBe(404);
    expect(Object.keys(missing.json())).toEqual(['detail']);
    const wrong = await app.inject({ method: 'GET', url: '/v1/jobs/normalize', headers: { 'x-api-key': 'job-key-1' } });
    expect([404, 405]).toContain(wrong.statusCode); // `GET /v1/jobs/{id}` also matches this path
    const del = await app.inject({ method: 'DELETE', url: '/v1/jobs/normalize', headers: { 'x-api-key': 'job-key-1' } });
    expect(del.statusCode).toBe(405);
    expect(del.headers.allow).toBe('POST');
  });

  it('is in the OpenAPI document', async () => {
    const doc = (await app.inject({ url: '/openapi.json' })).json();
    expect(doc.paths).toHaveProperty(['/v1/jobs/normalize']);
  });
});
