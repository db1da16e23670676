/** Callback URLs (what may receive results) and delivery (signing, retries, refusals). */
import { createHmac } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { RequestError } from '../../src/errors.ts';
import { checkCallbackUrl, isPrivateAddress } from '../../src/jobs/callback-url.ts';
import { loadJobsConfig, JobsConfigError } from '../../src/jobs/config.ts';
import { CallbackSender, resultMessageId } from '../../src/jobs/webhook.ts';
import { startReceiver, TEST_SECRET, verifyDelivery, type Receiver } from './helpers.ts';

async function expect422(work: Promise<unknown>, pattern: RegExp): Promise<void> {
  const error = await work.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(RequestError);
  expect((error as RequestError).status).toBe(422);
  expect((error as RequestError).detail).toMatch(pattern);
  expect((error as RequestError).detail).toContain('callback_url');
}

describe('callback URL policy', () => {
  it('knows private, loopback, link-local and reserved addresses', () => {
    for (const address of ['127.0.0.1', '10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '224.0.0.1', '::1', '::', 'fd00::1', 'fe80::1', '::ffff:127.0.0.1', '::ffff:10.0.0.1', '::ffff:7f00:1']) {
      expect(isPrivateAddress(address), address).toBe(true);
    }
    for (const address of ['8.8.8.8', '172.32.0.1', '1.1.1.1', '2606:4700:4700::1111', '::ffff:8.8.8.8', '::ffff:808:808']) {
      expect(isPrivateAddress(address), address).toBe(false);
    }
  });

  it('accepts only absolute http(s) URLs', async () => {
    await expect422(checkCallbackUrl(undefined, true), /required/);
    await expect422(checkCallbackUrl('not a url', true), /not an absolute URL/);
    await expect422(checkCallbackUrl('ftp://example.org/x', true), /only http and https/);
    await expect422(checkCallbackUrl('file:///etc/passwd', true), /only http and https/);
    await expect422(checkCallbackUrl('https://example.org/x#frag', true), /fragment/);
    await expect422(checkCallbackUrl(`https://example.org/${'x'.repeat(3000)}`, true), /longer than/);
    expect((await checkCallbackUrl('https://example.org/hook?x=1', false, async () => [{ address: '93.184.215.14', family: 4 }])).href).toBe(
      'https://example.org/hook?x=1',
    );
  });

  it('refuses private addresses, literal or resolved, unless allowed', async () => {
    for (const url of ['http://127.0.0.1:8080/x', 'http://[::1]/x', 'http://[::ffff:127.0.0.1]/x', 'http://2130706433/x', 'http://10.0.0.5/x', 'http://169.254.169.254/latest/meta-data']) {
      await expect422(checkCallbackUrl(url, false), /private, loopback/);
      expect((await checkCallbackUrl(url, true)).protocol).toBe('http:');
    }
    await expect422(checkCallbackUrl('http://localhost:9/x', false), /private, loopback/);
    // A public name that also resolves inside is refused.
    const mixed = async () => [{ address: '93.184.215.14', family: 4 }, { address: '10.0.0.1', family: 4 }];
    await expect422(checkCallbackUrl('https://hooks.example.org/x', false, mixed), /private, loopback/);
    const none = async () => {
      throw Object.assign(new Error('nx'), { code: 'ENOTFOUND' });
    };
    await expect422(checkCallbackUrl('https://nowhere.invalid/x', false, none), /does not resolve/);
  });
});

describe('configuration', () => {
  it('wants a whsec_ secret of at least 24 bytes and names the variable, not the value', () => {
    expect(loadJobsConfig({ HLA_SERVICE_WEBHOOK_SECRET: TEST_SECRET }).webhookSecret).toBe(TEST_SECRET);
    expect(loadJobsConfig({}).webhookSecret).toBeNull();
    for (const bad of ['plain-secret', 'whsec_c2hvcnQ=', 'whsec_!!!']) {
      expect(() => loadJobsConfig({ HLA_SERVICE_WEBHOOK_SECRET: bad })).toThrow(JobsConfigError);
      try {
        loadJobsConfig({ HLA_SERVICE_WEBHOOK_SECRET: bad });
      } catch (error) {
        expect((error as Error).message).not.toContain(bad);
      }
    }
    expect(() => loadJobsConfig({ HLA_SERVICE_JOB_MAX_BYTES: 'lots' })).toThrow(/HLA_SERVICE_JOB_MAX_BYTES/);
    expect(loadJobsConfig({}).maxBytes).toBe(50 * 1024 * 1024);
  });
});

describe('delivery', () => {
  let receiver: Receiver | undefined;
  afterEach(async () => {
    await receiver?.close();
    receiver = undefined;
  });

  const policy = { attempts: 4, backoffMs: 20, maxBackoffMs: 1000, timeoutMs: 2000 };

  it('signs with the standardwebhooks library: a receiver verifies with it', async () => {
    receiver = await startReceiver();
    const sender = new CallbackSender({ secret: TEST_SECRET, policy, allowPrivate: true });
    const body = Buffer.from('id,typing\nS1,A*01:01\n');
    const report = await sender.deliver(receiver.url, { id: resultMessageId('job-1'), body, contentType: 'text/csv; charset=utf-8' });
    expect(report).toEqual({ delivered: true, attempts: 1, lastFailure: null });
    const [delivery] = receiver.deliveries;
    expect(delivery.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(delivery.headers['webhook-id']).toBe('msg_job-1');
    expect(delivery.body.equals(body)).toBe(true);
    verifyDelivery(delivery);
    expect(() => verifyDelivery(delivery, `whsec_${Buffer.alloc(32, 7).toString('base64')}`)).toThrow();
    // The signature is the Standard Webhooks HMAC-SHA256 of "<id>.<timestamp>.<body>".
    const key = Buffer.from(TEST_SECRET.slice('whsec_'.length), 'base64');
    const mac = createHmac('sha256', key).update(`msg_job-1.${delivery.headers['webhook-timestamp']}.`).update(body).digest('base64');
    expect(delivery.headers['webhook-signature']).toBe(`v1,${mac}`);
  });

  it('retries with backoff, keeping the webhook-id, re-signing each attempt', async () => {
    receiver = await startReceiver((index) => (index < 2 ? 503 : 200));
    const sender = new CallbackSender({ secret: TEST_SECRET, policy, allowPrivate: true });
    const report = await sender.deliver(receiver.url, { id: 'msg_retry', body: Buffer.from('a\n'), contentType: 'text/csv' });
    expect(report).toMatchObject({ delivered: true, attempts: 3 });
    expect(new Set(receiver.deliveries.map((d) => d.headers['webhook-id']))).toEqual(new Set(['msg_retry']));
    receiver.deliveries.forEach((delivery) => verifyDelivery(delivery));
    const gaps = receiver.deliveries.slice(1).map((d, i) => d.at - receiver!.deliveries[i].at);
    expect(gaps[0]).toBeGreaterThanOrEqual(15);
    expect(gaps[1]).toBeGreaterThanOrEqual(30); // doubled
  });

  it('gives up after the last attempt and says why, without the URL', async () => {
    receiver = await startReceiver(() => 500);
    const sender = new CallbackSender({ secret: TEST_SECRET, policy: { ...policy, attempts: 2 }, allowPrivate: true });
    const report = await sender.deliver(`${receiver.url}?token=secret-token`, { id: 'x', body: Buffer.from('a'), contentType: 'text/csv' });
    expect(report).toEqual({ delivered: false, attempts: 2, lastFailure: 'HTTP 500' });
    const refused = await sender.deliver('http://127.0.0.1:1/x', { id: 'x', body: Buffer.from('a'), contentType: 'text/csv' });
    expect(refused).toMatchObject({ delivered: false, lastFailure: 'ECONNREFUSED' });
  });

  it('does not follow redirects', async () => {
    receiver = await startReceiver(() => 302);
    const sender = new CallbackSender({ secret: TEST_SECRET, policy: { ...policy, attempts: 1 }, allowPrivate: true });
    const report = await sender.deliver(receiver.url, { id: 'x', body: Buffer.from('a'), contentType: 'text/csv' });
    expect(report).toEqual({ delivered: false, attempts: 1, lastFailure: 'HTTP 302' });
    expect(receiver.deliveries).toHaveLength(1);
  });

  it('refuses private addresses at delivery too, for literals and for names', async () => {
    receiver = await startReceiver();
    const sender = new CallbackSender({ secret: TEST_SECRET, policy, allowPrivate: false });
    const literal = await sender.deliver(receiver.url, { id: 'x', body: Buffer.from('a'), contentType: 'text/csv' });
    expect(literal).toEqual({ delivered: false, attempts: 1, lastFailure: 'address refused' });
    const named = await sender.deliver(receiver.url.replace('127.0.0.1', 'localhost'), { id: 'x', body: Buffer.from('a'), contentType: 'text/csv' });
    expect(named).toEqual({ delivered: false, attempts: 1, lastFailure: 'address refused' });
    expect(receiver.deliveries).toHaveLength(0);
  });

  it('produces the same signature as the library for a fixed moment', () => {
    const sender = new CallbackSender({ secret: TEST_SECRET, policy, allowPrivate: true });
    const at = new Date('2026-01-02T03:04:05Z');
    const body = Buffer.from('x,y\n1,2\n');
    expect(sender.sign('msg_1', body, at)['webhook-signature']).toBe(new Webhook(TEST_SECRET).sign('msg_1', at, body));
  });
});
