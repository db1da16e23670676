/**
 * Shared set-up of the bulk-jobs tests: a callback receiver on a local port, the signing secret,
 * a Redis for the queue tests (REDIS_URL; else a testcontainers Redis where Docker exists; else
 * those tests are skipped with a message), a unique key prefix per test file, and a key scanner.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import { Webhook } from 'standardwebhooks';
import { loadJobsConfig, type JobsConfig } from '../../src/jobs/config.ts';

export const TEST_SECRET = `whsec_${randomBytes(32).toString('base64')}`;

/** Fast settings for tests: short locks and backoffs, private callbacks allowed. */
export function testJobsConfig(env: Record<string, string | undefined> = {}): JobsConfig {
  return loadJobsConfig({
    HLA_SERVICE_WEBHOOK_SECRET: TEST_SECRET,
    HLA_SERVICE_ALLOW_PRIVATE_CALLBACKS: 'true',
    HLA_SERVICE_CALLBACK_BACKOFF_MS: '50',
    HLA_SERVICE_CALLBACK_ATTEMPTS: '3',
    HLA_SERVICE_CALLBACK_TIMEOUT_MS: '5000',
    HLA_SERVICE_WORKER_LOCK_MS: '2000',
    HLA_SERVICE_WORKER_STALLED_MS: '1000',
    ...env,
  });
}

export interface Delivery {
  readonly headers: http.IncomingHttpHeaders;
  readonly body: Buffer;
  readonly at: number;
}

/** What the receiver answers to the n-th request (0-based): a status, or 'hang' (never answers). */
export type Answer = number | 'hang';

export interface Receiver {
  readonly url: string;
  readonly deliveries: Delivery[];
  /** The first `count` deliveries, once they have arrived. */
  waitFor(count: number, timeoutMs?: number): Promise<Delivery[]>;
  /** The first delivery with this `webhook-id`, once it has arrived. */
  waitForMessage(id: string, timeoutMs?: number): Promise<Delivery>;
  close(): Promise<void>;
}

export async function startReceiver(answer: (index: number) => Answer = () => 204): Promise<Receiver> {
  const deliveries: Delivery[] = [];
  const waiters: (() => void)[] = [];
  const hanging = new Set<http.ServerResponse>();
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const index = deliveries.length;
      deliveries.push({ headers: request.headers, body: Buffer.concat(chunks), at: Date.now() });
      waiters.splice(0).forEach((wake) => wake());
      const reply = answer(index);
      if (reply === 'hang') {
        hanging.add(response);
        return;
      }
      response.writeHead(reply).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks/hla`,
    deliveries,
    async waitFor(count, timeoutMs = 30_000) {
      const until = Date.now() + timeoutMs;
      while (deliveries.length < count) {
        const left = until - Date.now();
        if (left <= 0) throw new Error(`receiver got ${deliveries.length} of ${count} deliveries in time`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, Math.min(left, 200));
          waiters.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
      return deliveries.slice(0, count);
    },
    async waitForMessage(id, timeoutMs = 30_000) {
      const until = Date.now() + timeoutMs;
      for (;;) {
        const found = deliveries.find((delivery) => delivery.headers['webhook-id'] === id);
        if (found !== undefined) return found;
        const left = until - Date.now();
        if (left <= 0) throw new Error(`receiver got no delivery ${id} in time`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, Math.min(left, 200));
          waiters.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
    },
    async close() {
      for (const response of hanging) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Verifies a delivery as a receiver would, with the `standardwebhooks` library. */
export function verifyDelivery(delivery: Delivery, secret = TEST_SECRET): void {
  const headers: Record<string, string> = {};
  for (const name of ['webhook-id', 'webhook-timestamp', 'webhook-signature']) headers[name] = String(delivery.headers[name]);
  new Webhook(secret).verify(delivery.body, headers, { jsonParse: false });
}

/** Rows of a result CSV without quoted fields (tests build such inputs), header included. */
export function simpleRows(csv: Buffer | string): string[][] {
  return csv
    .toString()
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => line.split(','));
}

export function uniquePrefix(): string {
  return `hla-test-jobs-${randomUUID().slice(0, 8)}:`;
}

/** Every key under `prefix` with its type. */
export async function scanKeys(redis: Redis, prefix: string): Promise<Map<string, string>> {
  const keys = new Map<string, string>();
  let cursor = '0';
  do {
    const [next, batch] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
    cursor = next;
    for (const key of batch) keys.set(key, await redis.type(key));
  } while (cursor !== '0');
  return keys;
}

/** Every value stored under `prefix`, dumped as text, to look for content. */
export async function dumpValues(redis: Redis, prefix: string): Promise<string> {
  const parts: string[] = [];
  for (const [key, type] of await scanKeys(redis, prefix)) {
    if (type === 'string') parts.push((await redis.get(key)) ?? '');
    else if (type === 'hash') parts.push(JSON.stringify(await redis.hgetall(key)));
    else if (type === 'list') parts.push(JSON.stringify(await redis.lrange(key, 0, -1)));
    else if (type === 'set') parts.push(JSON.stringify(await redis.smembers(key)));
    else if (type === 'zset') parts.push(JSON.stringify(await redis.zrange(key, 0, -1)));
    else if (type === 'stream') parts.push(JSON.stringify(await redis.xrange(key, '-', '+')));
  }
  return parts.join('\n');
}

export async function deleteKeys(redis: Redis, prefix: string): Promise<void> {
  const keys = [...(await scanKeys(redis, prefix)).keys()];
  if (keys.length > 0) await redis.del(...keys);
}

export async function eventually<T>(check: () => Promise<T> | T, timeoutMs = 10_000, stepMs = 25): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > until) throw error;
      await new Promise((resolve) => setTimeout(resolve, stepMs));
    }
  }
}

// ---- a Redis for the queue tests ----

let testRedis: Promise<string | null> | undefined;
let container: { stop(): Promise<unknown> } | undefined;

/**
 * REDIS_URL when set; else a throwaway Redis container where Docker exists; else null, and the
 * caller skips with `REDIS_SKIP_REASON`.
 */
export function redisUrlForTests(): Promise<string | null> {
  testRedis ??= (async () => {
    if (process.env.REDIS_URL) return process.env.REDIS_URL;
    if (!process.env.DOCKER_HOST && !existsSync('/var/run/docker.sock')) return null;
    try {
      const { GenericContainer } = await import('testcontainers');
      const started = await new GenericContainer('redis:7-alpine').withExposedPorts(6379).start();
      container = started;
      return `redis://${started.getHost()}:${started.getMappedPort(6379)}`;
    } catch {
      return null;
    }
  })();
  return testRedis;
}

export async function stopTestRedis(): Promise<void> {
  await container?.stop();
}

export const REDIS_SKIP_REASON =
  'skipped: no REDIS_URL and no Docker for a testcontainers Redis (run with REDIS_URL=redis://127.0.0.1:6379)';

export interface FormPart {
  readonly name: string;
  readonly value: string | Buffer;
  /** Set for a file part. */
  readonly filename?: string;
  readonly type?: string;
}

/** A multipart/form-data body, as curl -F would send it. */
export function multipartBody(parts: readonly FormPart[]): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----hla-test-${randomUUID()}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    let head = `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"`;
    if (part.filename !== undefined) head += `; filename="${part.filename}"`;
    head += '\r\n';
    if (part.type !== undefined) head += `Content-Type: ${part.type}\r\n`;
    chunks.push(Buffer.from(`${head}\r\n`), Buffer.from(part.value), Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}
