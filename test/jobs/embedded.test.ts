/**
 * Embedded mode end to end (no Redis): the API app with an in-process job service, a local
 * callback receiver, signatures verified with the standardwebhooks library, rows checked on the
 * real 3.65.0 engine. Also the endpoints' 202/404/413/415/422 answers, which do not depend on mode.
 */
import { parse } from 'csv-parse/sync';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EmbeddedJobService } from '../../src/jobs/embedded-service.ts';
import type { JobService, JobStatus } from '../../src/jobs/types.ts';
import type { Engine } from '../../src/nomenclature/engine-types.ts';
import { capturingLogger, testApp, testCatalog } from '../api/helpers.ts';
import { eventually, multipartBody, startReceiver, testJobsConfig, verifyDelivery, type Receiver } from './helpers.ts';

const KEYS = 'key-alpha-0001;label=alpha,key-beta-0002;label=beta,key-old-0003;label=old;tag=v3.58.0-alpha';
const ALPHA = { 'x-api-key': 'key-alpha-0001' };
const BETA = { 'x-api-key': 'key-beta-0002' };
const CSV = { 'content-type': 'text/csv' };

const REGISTRY = [
  'donor_id,hla_a,hla_b,comment',
  'R1,A*0201,B*0702,first',
  'R2,Cw*0702,B*44:02:01:01,"a, comment"',
  'R3,A*24:09N,X*99:99,',
  'R4,A*2401,B*1308Q,',
].join('\n');

describe('embedded mode', () => {
  let app: FastifyInstance;
  let jobs: JobService;
  let engine: Engine;
  let receiver: Receiver;
  const logs = capturingLogger('debug');

  beforeAll(async () => {
    const catalog = await testCatalog();
    engine = catalog.defaultEngine;
    jobs = new EmbeddedJobService({
      config: testJobsConfig({ HLA_SERVICE_JOB_MAX_BYTES: '20000' }),
      engineFor: (tag) => catalog.engineFor(tag),
      log: logs.logger,
    });
    app = await testApp({ env: { HLA_SERVICE_API_KEYS: KEYS }, jobs, logger: logs.logger });
    receiver = await startReceiver();
  });

  afterAll(async () => {
    await app?.close();
    await jobs?.close();
    await receiver?.close();
  });

  async function statusOf(jobId: string, headers = ALPHA): Promise<JobStatus> {
    const res = await app.inject({ method: 'GET', url: `/v1/jobs/${jobId}`, headers });
    expect(res.statusCode).toBe(200);
    return res.json() as JobStatus;
  }

  it('normalize: 202, then the signed result CSV at the callback, then status completed', async () => {
    const url = `/v1/jobs/normalize?column=hla_a&column=hla_b&callback_url=${encodeURIComponent(receiver.url)}`;
    const res = await app.inject({ method: 'POST', url, payload: REGISTRY, headers: { ...CSV, ...ALPHA } });
    expect(res.statusCode).toBe(202);
    const { job_id: jobId, status_url: statusUrl } = res.json() as { job_id: string; status_url: string };
    expect(Object.keys(res.json())).toEqual(['job_id', 'status_url']);
    expect(statusUrl).toBe(`/v1/jobs/${jobId}`);
    expect(res.headers.location).toBe(statusUrl);

    const delivery = await receiver.waitForMessage(`msg_${jobId}`);
    verifyDelivery(delivery);
    expect(delivery.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(delivery.headers['x-hla-job-id']).toBe(jobId);

    const [header, ...rows] = parse(delivery.body) as string[][];
    expect(header.slice(0, 4)).toEqual(['donor_id', 'hla_a', 'hla_b', 'comment']);
    expect(header.at(-1)).toBe('error');
    expect(rows.map((row) => row[0])).toEqual(['R1', 'R2', 'R3', 'R4']);
    expect(rows[1][3]).toBe('a, comment');
    for (const row of rows) {
      for (const [k, column] of [[1, 4], [2, 8]] as const) {
        const expected = engine.normalizeOne(row[k]);
        expect(row.slice(column, column + 4)).toEqual([expected.current_name, expected.allele_2field, expected.g_group, expected.flags.join('|')]);
      }
    }
    expect(rows[0].slice(4, 8)).toEqual(['A*02:01', 'A*02:01', 'AMBIGUOUS', 'deprecated_name']);

    const status = await eventually(async () => {
      const s = await statusOf(jobId);
      expect(s.state).toBe('completed');
      return s;
    });
    expect(status).toMatchObject({ job_id: jobId, kind: 'normalize', progress: { rows_done: 4, rows_total: 4 }, row_errors: 0 });
    expect(Date.parse(status.submitted_at)).toBeLessThanOrEqual(Date.parse(status.started_at!));
    expect(Date.parse(status.started_at!)).toBeLessThanOrEqual(Date.parse(status.finished_at!));
    expect(JSON.stringify(status)).not.toMatch(/A\*|hla_a|127\.0\.0\.1/);
  });

  it("runs a job on the release its key is pinned to", async () => {
    const url = `/v1/jobs/normalize?column=hla_a&callback_url=${encodeURIComponent(receiver.url)}`;
    const res = await app.inject({ method: 'POST', url, payload: REGISTRY, headers: { ...CSV, 'x-api-key': 'key-old-0003' } });
    expect(res.statusCode).toBe(202);
    const delivery = await receiver.waitForMessage(`msg_${res.json().job_id}`);
    expect(delivery.headers['x-hla-release']).toBe('3.58.0');
  });

  it('shows a job only to the key that submitted it', async () => {
    const url = `/v1/jobs/normalize?column=hla_a&callback_url=${encodeURIComponent(receiver.url)}`;
    const res = await app.inject({ method: 'POST', url, payload: REGISTRY, headers: { ...CSV, ...ALPHA } });
    const { job_id: jobId } = res.json() as { job_id: string };
    expect((await app.inject({ method: 'GET', url: `/v1/jobs/${jobId}`, headers: ALPHA })).statusCode).toBe(200);
    for (const headers of [BETA, {}]) {
      const other = await app.inject({ method: 'GET', url: `/v1/jobs/${jobId}`, headers });
      expect(other.statusCode).toBe(404);
      expect(other.json()).toEqual({ detail: 'No such job for this caller (it may have expired)' });
    }
    expect((await app.inject({ method: 'GET', url: '/v1/jobs/not-a-job', headers: ALPHA })).statusCode).toBe(404);
    expect((await app.inject({ method: 'GET', url: `/v1/jobs/${jobId}`, headers: { 'x-api-key': 'wrong' } })).statusCode).toBe(401);
  });

  it('donor search: multipart with a recipient field and a donors file; ranked result', async () => {
    const recipient = { A: ['A*01:01', 'A*02:01'], B: ['B*07:02', 'B*08:01'], C: ['C*07:01', 'C*07:02'], DRB1: ['DRB1*15:01', 'DRB1*03:01'] };
    const donors = [
      'donor_id,A_1,A_2,B_1,B_2,C_1,C_2,DRB1_1,DRB1_2',
      'D1,A*01:01,A*03:01,B*07:02,B*08:01,C*07:01,C*07:02,DRB1*15:01,DRB1*03:01',
      'D2,A*01:01,A*02:01,B*07:02,B*08:01,C*07:01,C*07:02,DRB1*15:01,DRB1*03:01',
    ].join('\n');
    const form = multipartBody([
      { name: 'recipient', value: JSON.stringify(recipient) },
      { name: 'framework', value: '8/8' },
      { name: 'callback_url', value: receiver.url },
      { name: 'donors', value: donors, filename: 'donors.csv', type: 'text/csv' },
    ]);
    const res = await app.inject({ method: 'POST', url: '/v1/jobs/match', payload: form.payload, headers: { ...form.headers, ...ALPHA } });
    expect(res.statusCode).toBe(202);
    const delivery = await receiver.waitForMessage(`msg_${res.json().job_id}`);
    verifyDelivery(delivery);
    const [header, ...rows] = parse(delivery.body) as string[][];
    expect(header.slice(0, 3)).toEqual(['rank', 'input_row', 'donor_id']);
    expect(rows.map((row) => [row[0], row[2], row[header.indexOf('count')]])).toEqual([
      ['1', 'D2', '8/8'],
      ['2', 'D1', '7/8'],
    ]);
  });

  it('pairs: a text/csv body with recipient_ and donor_ columns', async () => {
    const pairs = ['pair,recipient_A_1,recipient_A_2,donor_A_1,donor_A_2', 'P1,A*01:01,A*01:01,A*01:01,A*02:01'].join('\n');
    const url = `/v1/jobs/match?framework=8/8&callback_url=${encodeURIComponent(receiver.url)}`;
    const res = await app.inject({ method: 'POST', url, payload: pairs, headers: { ...CSV, ...ALPHA } });
    expect(res.statusCode).toBe(202);
    const delivery = await receiver.waitForMessage(`msg_${res.json().job_id}`);
    const [header, row] = parse(delivery.body) as string[][];
    const record = Object.fromEntries(header.map((name, i) => [name, row[i]]));
    // DOMAIN_RULES R4: homozygous recipient vs a donor with one other allele: HvG 1, GvH 0; B, C, DRB1 untyped.
    expect(record).toMatchObject({ pair: 'P1', A_verdict: 'mismatch', hvg_mismatches: '1', gvh_mismatches: '0', B_verdict: 'potential' });
  });

  it('multipart normalize: the CSV as the file part, parameters as fields', async () => {
    const form = multipartBody([
      { name: 'column', value: 'hla_a' },
      { name: 'callback_url', value: receiver.url },
      { name: 'file', value: REGISTRY, filename: 'registry.csv', type: 'text/csv' },
    ]);
    const res = await app.inject({ method: 'POST', url: '/v1/jobs/normalize', payload: form.payload, headers: { ...form.headers, ...ALPHA } });
    expect(res.statusCode).toBe(202);
    const delivery = await receiver.waitForMessage(`msg_${res.json().job_id}`);
    expect((parse(delivery.body) as string[][])[0]).toContain('hla_a_current_name');
  });

  it('refuses what it cannot take, naming the field, never the content', async () => {
    const cb = `callback_url=${encodeURIComponent(receiver.url)}`;
    const post = (url: string, payload: string | Buffer, headers: Record<string, string> = CSV) =>
      app.inject({ method: 'POST', url, payload, headers: { ...headers, ...ALPHA } });

    const missing = await post(`/v1/jobs/normalize?column=hla_x&${cb}`, REGISTRY);
    expect([missing.statusCode, missing.json()]).toEqual([422, { detail: "column: 'hla_x' is not a column of the CSV header" }]);
    expect((await post(`/v1/jobs/normalize?${cb}`, REGISTRY)).statusCode).toBe(422);
    const binary = await post(`/v1/jobs/normalize?column=hla_a&${cb}`, Buffer.from([0x50, 0x4b, 0x03, 0x04, 0, 0, 1, 2]));
    expect([binary.statusCode, binary.json().detail]).toEqual([422, expect.stringMatching(/not UTF-8 text/)]);
    expect((await post(`/v1/jobs/normalize?column=hla_a&${cb}`, '')).statusCode).toBe(422);
    const noCallback = await post('/v1/jobs/normalize?column=hla_a', REGISTRY);
    expect([noCallback.statusCode, noCallback.json().detail]).toEqual([422, expect.stringMatching(/^callback_url: required/)]);
    expect((await post('/v1/jobs/normalize?column=hla_a&callback_url=ftp://x.org/', REGISTRY)).statusCode).toBe(422);
    const framework = await post(`/v1/jobs/match?framework=9/9&${cb}`, 'recipient_A_1,donor_A_1\nA*01:01,A*01:01');
    expect([framework.statusCode, framework.json().detail]).toEqual([422, expect.stringMatching(/^framework: must be one of/)]);
    const noRecipient = await post(`/v1/jobs/match?mode=search&${cb}`, 'A_1\nA*01:01');
    expect([noRecipient.statusCode, noRecipient.json().detail]).toEqual([422, expect.stringMatching(/^recipient: required/)]);
    const badRecipient = multipartBody([
      { name: 'recipient', value: '{"A": "A*01:01"' },
      { name: 'donors', value: 'A_1\nA*01:01', filename: 'd.csv' },
    ]);
    const bad = await post(`/v1/jobs/match?${cb}`, badRecipient.payload, badRecipient.headers);
    expect([bad.statusCode, bad.json()]).toEqual([422, { detail: 'recipient: not valid JSON; send an object of locus → list of allele names' }]);

    const json = await post(`/v1/jobs/normalize?column=hla_a&${cb}`, JSON.stringify({ typings: ['A*01:01'] }), { 'content-type': 'application/json' });
    expect([json.statusCode, json.json().detail]).toEqual([415, expect.stringMatching(/text\/csv/)]);
    expect((await post(`/v1/jobs/normalize?column=hla_a&${cb}`, 'x', { 'content-type': 'application/octet-stream' })).statusCode).toBe(415);

    const big = 'id,hla_a\n' + 'S1,A*01:01:01:01\n'.repeat(2000);
    const tooLarge = await post(`/v1/jobs/normalize?column=hla_a&${cb}`, big);
    expect([tooLarge.statusCode, tooLarge.json()]).toEqual([413, { detail: 'CSV larger than 20000 bytes (HLA_SERVICE_JOB_MAX_BYTES)' }]);
    const bigForm = multipartBody([{ name: 'file', value: big, filename: 'big.csv' }]);
    expect((await post(`/v1/jobs/normalize?column=hla_a&${cb}`, bigForm.payload, bigForm.headers)).statusCode).toBe(413);

    const all = logs.text();
    expect(all).not.toMatch(/A\*0201|Cw\*0702|R1,|hooks\/hla|key-alpha/);
  });

  it('refuses loopback callbacks unless HLA_SERVICE_ALLOW_PRIVATE_CALLBACKS is set', async () => {
    const catalog = await testCatalog();
    const strict = new EmbeddedJobService({
      config: testJobsConfig({ HLA_SERVICE_ALLOW_PRIVATE_CALLBACKS: 'false' }),
      engineFor: (tag) => catalog.engineFor(tag),
      log: capturingLogger().logger,
    });
    const strictApp = await testApp({ jobs: strict });
    try {
      const url = `/v1/jobs/normalize?column=hla_a&callback_url=${encodeURIComponent(receiver.url)}`;
      const res = await strictApp.inject({ method: 'POST', url, payload: REGISTRY, headers: CSV });
      expect(res.statusCode).toBe(422);
      expect(res.json().detail).toMatch(/^callback_url: private, loopback/);
    } finally {
      await strictApp.close();
      await strict.close();
    }
  });
});

describe('embedded mode: failures', () => {
  it('sends a failure notice (JSON, a reason, no content) when the job cannot run', async () => {
    const receiver = await startReceiver();
    const broken = new EmbeddedJobService({
      config: testJobsConfig(),
      engineFor: () => Promise.reject(new Error('release gone')),
      log: capturingLogger().logger,
    });
    const app = await testApp({ jobs: broken });
    try {
      const url = `/v1/jobs/normalize?column=hla_a&callback_url=${encodeURIComponent(receiver.url)}`;
      const res = await app.inject({ method: 'POST', url, payload: REGISTRY, headers: CSV });
      expect(res.statusCode).toBe(202);
      const { job_id: jobId } = res.json() as { job_id: string };
      const [delivery] = await receiver.waitFor(1);
      verifyDelivery(delivery);
      expect(delivery.headers['webhook-id']).toBe(`msg_${jobId}_failed`);
      expect(delivery.headers['content-type']).toBe('application/json');
      const notice = JSON.parse(delivery.body.toString()) as Record<string, unknown>;
      expect(notice).toMatchObject({ type: 'job.failed', job_id: jobId, kind: 'normalize', rows_done: 0 });
      expect(notice.reason).toMatch(/release/);
      expect(delivery.body.toString()).not.toMatch(/A\*|R1/);
      const status = (await app.inject({ method: 'GET', url: `/v1/jobs/${jobId}` })).json() as JobStatus;
      expect(status).toMatchObject({ state: 'failed', failure_reason: notice.reason });
    } finally {
      await app.close();
      await broken.close();
      await receiver.close();
    }
  });

  it('fails the job when the receiver never accepts the result, and says so in the status', async () => {
    const receiver = await startReceiver(() => 500);
    const catalog = await testCatalog();
    const service = new EmbeddedJobService({
      config: testJobsConfig({ HLA_SERVICE_CALLBACK_ATTEMPTS: '3' }),
      engineFor: (tag) => catalog.engineFor(tag),
      log: capturingLogger().logger,
    });
    const app = await testApp({ jobs: service });
    try {
      const url = `/v1/jobs/normalize?column=hla_a&callback_url=${encodeURIComponent(receiver.url)}`;
      const { job_id: jobId } = (await app.inject({ method: 'POST', url, payload: REGISTRY, headers: CSV })).json() as { job_id: string };
      const status = await eventually(async () => {
        const s = (await app.inject({ method: 'GET', url: `/v1/jobs/${jobId}` })).json() as JobStatus;
        expect(s.state).toBe('failed');
        return s;
      });
      expect(status.failure_reason).toBe('callback delivery failed after 3 attempt(s) (last: HTTP 500)');
      expect(receiver.deliveries).toHaveLength(3); // the result, three times; no failure notice to the same refusing URL
      expect(new Set(receiver.deliveries.map((d) => d.headers['webhook-id'])).size).toBe(1);
    } finally {
      await app.close();
      await service.close();
      await receiver.close();
    }
  });
});

describe('without HLA_SERVICE_WEBHOOK_SECRET', () => {
  it('answers 503 on the job endpoints, before reading the body, and serves the rest', async () => {
    const logs = capturingLogger();
    const catalog = await testCatalog();
    const { loadJobsConfig } = await import('../../src/jobs/config.ts');
    const { createJobService, JOBS_DISABLED_DETAIL } = await import('../../src/jobs/index.ts');
    const jobs = createJobService(loadJobsConfig({}), { engineFor: (tag) => catalog.engineFor(tag), log: logs.logger });
    expect(jobs.mode).toBe('disabled');
    const app = await testApp({ jobs });
    try {
      const submit = await app.inject({ method: 'POST', url: '/v1/jobs/normalize?column=a', payload: 'a\n1', headers: CSV });
      expect([submit.statusCode, submit.json(), submit.headers['retry-after']]).toEqual([503, { detail: JOBS_DISABLED_DETAIL }, '5']);
      expect((await app.inject({ method: 'GET', url: '/v1/jobs/00000000-0000-4000-8000-000000000001' })).statusCode).toBe(503);
      expect((await app.inject({ method: 'POST', url: '/v1/normalize', payload: { typings: ['A*01:01'] } })).statusCode).toBe(200);
      expect(logs.text()).toContain('bulk jobs are disabled');
    } finally {
      await app.close();
      await jobs.close();
    }
  });
});
