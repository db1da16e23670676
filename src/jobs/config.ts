/**
 * Bulk-jobs configuration, read once from the environment (docs/bulk-jobs.md "Environment").
 * A bad value stops the start-up with a message naming the variable, never its value.
 */
import { type Env, envFlag, envInteger, envText } from '../env.ts';

export interface JobsConfig {
  /** Queue mode when set; embedded (in-process, single node) otherwise. */
  readonly redisUrl: string | null;
  /** Prefix of every Redis key; BullMQ's keys sit under `<prefix>jobs:`. */
  readonly redisPrefix: string;
  readonly maxBytes: number;
  /** Jobs run at once per worker process (queue mode) or in the API process (embedded mode). */
  readonly concurrency: number;
  /** Standard Webhooks secret (`whsec_<base64>`); null = bulk jobs disabled (503). */
  readonly webhookSecret: string | null;
  readonly allowPrivateCallbacks: boolean;
  /** Upper bound on how long a job's input may stay in Redis (queued + processing + delivery). */
  readonly inputTtlSeconds: number;
  /** How long a finished job's status (counts and times only) stays readable. */
  readonly statusTtlSeconds: number;
  readonly callback: CallbackPolicy;
  readonly worker: WorkerTuning;
  /** Timeout of a Redis command on the submit path: beyond it, submit answers 503. */
  readonly queueTimeoutMs: number;
  /** Embedded mode: jobs waiting in memory beyond the running ones; more get 503. */
  readonly embeddedMaxQueued: number;
}

export interface CallbackPolicy {
  /** Attempts per delivery, the first included. */
  readonly attempts: number;
  /** Delay before the second attempt; doubles each time, capped by `maxBackoffMs`. */
  readonly backoffMs: number;
  readonly maxBackoffMs: number;
  /** Per-attempt timeout (connect + send + answer). */
  readonly timeoutMs: number;
}

export interface WorkerTuning {
  /** BullMQ lock duration: a worker silent this long is presumed dead. */
  readonly lockDurationMs: number;
  /** How often workers look for jobs whose worker died. */
  readonly stalledIntervalMs: number;
  /** Crashes a job survives before it fails ("stalled more than allowable limit"). */
  readonly maxStalledCount: number;
}

export const DEFAULT_JOB_MAX_BYTES = 50 * 1024 * 1024;

export class JobsConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'JobsConfigError';
  }
}

const fail = (message: string): Error => new JobsConfigError(message);

export function loadJobsConfig(env: Env = process.env): JobsConfig {
  return {
    redisUrl: envText(env.REDIS_URL),
    redisPrefix: envText(env.HLA_SERVICE_REDIS_PREFIX) ?? 'hla:',
    maxBytes: envInteger(env, 'HLA_SERVICE_JOB_MAX_BYTES', { fallback: DEFAULT_JOB_MAX_BYTES, min: 1, max: 512 * 1024 * 1024 }, fail),
    concurrency: envInteger(env, 'HLA_SERVICE_WORKER_CONCURRENCY', { fallback: 1, min: 1, max: 64 }, fail),
    webhookSecret: webhookSecret(env.HLA_SERVICE_WEBHOOK_SECRET),
    allowPrivateCallbacks: envFlag(env, 'HLA_SERVICE_ALLOW_PRIVATE_CALLBACKS', false, fail),
    inputTtlSeconds: envInteger(env, 'HLA_SERVICE_JOB_INPUT_TTL_S', { fallback: 3600, min: 10, max: 7 * 86400 }, fail),
    statusTtlSeconds: envInteger(env, 'HLA_SERVICE_JOB_STATUS_TTL_S', { fallback: 86400, min: 10, max: 30 * 86400 }, fail),
    callback: {
      attempts: envInteger(env, 'HLA_SERVICE_CALLBACK_ATTEMPTS', { fallback: 8, min: 1, max: 30 }, fail),
      backoffMs: envInteger(env, 'HLA_SERVICE_CALLBACK_BACKOFF_MS', { fallback: 1000, min: 1, max: 3_600_000 }, fail),
      maxBackoffMs: envInteger(env, 'HLA_SERVICE_CALLBACK_MAX_BACKOFF_MS', { fallback: 300_000, min: 1, max: 3_600_000 }, fail),
      timeoutMs: envInteger(env, 'HLA_SERVICE_CALLBACK_TIMEOUT_MS', { fallback: 30_000, min: 100, max: 600_000 }, fail),
    },
    worker: {
      lockDurationMs: envInteger(env, 'HLA_SERVICE_WORKER_LOCK_MS', { fallback: 30_000, min: 500, max: 600_000 }, fail),
      stalledIntervalMs: envInteger(env, 'HLA_SERVICE_WORKER_STALLED_MS', { fallback: 30_000, min: 200, max: 600_000 }, fail),
      maxStalledCount: envInteger(env, 'HLA_SERVICE_WORKER_MAX_STALLED', { fallback: 2, min: 0, max: 100 }, fail),
    },
    queueTimeoutMs: envInteger(env, 'HLA_SERVICE_QUEUE_TIMEOUT_MS', { fallback: 2000, min: 50, max: 60_000 }, fail),
    embeddedMaxQueued: envInteger(env, 'HLA_SERVICE_EMBEDDED_MAX_QUEUED', { fallback: 16, min: 0, max: 10_000 }, fail),
  };
}




/** `whsec_` + base64 of at least 24 bytes (Standard Webhooks recommends 24 to 64). */
function webhookSecret(value: string | undefined): string | null {
  const secret = envText(value);
  if (secret === null) return null;
  const body = secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : null;
  if (body === null || !/^[A-Za-z0-9+/]+={0,2}$/.test(body) || Buffer.from(body, 'base64').length < 24) {
    throw new JobsConfigError(
      'HLA_SERVICE_WEBHOOK_SECRET must be whsec_ followed by the base64 of at least 24 random bytes ' +
        '(e.g. `echo whsec_$(openssl rand -base64 32)`)',
    );
  }
  return secret;
}
