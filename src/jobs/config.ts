/**
 * Bulk-jobs configuration, read once from the environment (docs/bulk-jobs.md "Environment").
 * A bad value stops the start-up with a message naming the variable, never its value.
 */

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

type Env = Readonly<Record<string, string | undefined>>;

export function loadJobsConfig(env: Env = process.env): JobsConfig {
  return {
    redisUrl: text(env.REDIS_URL),
    redisPrefix: text(env.HLA_SERVICE_REDIS_PREFIX) ?? 'hla:',
    maxBytes: integer(env, 'HLA_SERVICE_JOB_MAX_BYTES', DEFAULT_JOB_MAX_BYTES, 1, 512 * 1024 * 1024),
    concurrency: integer(env, 'HLA_SERVICE_WORKER_CONCURRENCY', 1, 1, 64),
    webhookSecret: webhookSecret(env.HLA_SERVICE_WEBHOOK_SECRET),
    allowPrivateCallbacks: flag(env, 'HLA_SERVICE_ALLOW_PRIVATE_CALLBACKS'),
    inputTtlSeconds: integer(env, 'HLA_SERVICE_JOB_INPUT_TTL_S', 3600, 10, 7 * 86400),
    statusTtlSeconds: integer(env, 'HLA_SERVICE_JOB_STATUS_TTL_S', 86400, 10, 30 * 86400),
    callback: {
      attempts: integer(env, 'HLA_SERVICE_CALLBACK_ATTEMPTS', 8, 1, 30),
      backoffMs: integer(env, 'HLA_SERVICE_CALLBACK_BACKOFF_MS', 1000, 1, 3_600_000),
      maxBackoffMs: integer(env, 'HLA_SERVICE_CALLBACK_MAX_BACKOFF_MS', 300_000, 1, 3_600_000),
      timeoutMs: integer(env, 'HLA_SERVICE_CALLBACK_TIMEOUT_MS', 30_000, 100, 600_000),
    },
    worker: {
      lockDurationMs: integer(env, 'HLA_SERVICE_WORKER_LOCK_MS', 30_000, 500, 600_000),
      stalledIntervalMs: integer(env, 'HLA_SERVICE_WORKER_STALLED_MS', 30_000, 200, 600_000),
      maxStalledCount: integer(env, 'HLA_SERVICE_WORKER_MAX_STALLED', 2, 0, 100),
    },
    queueTimeoutMs: integer(env, 'HLA_SERVICE_QUEUE_TIMEOUT_MS', 2000, 50, 60_000),
    embeddedMaxQueued: integer(env, 'HLA_SERVICE_EMBEDDED_MAX_QUEUED', 16, 0, 10_000),
  };
}

function text(value: string | undefined): string | null {
  const trimmed = value?.trim();
  return trimmed ? trimmed : null;
}

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const value = text(env[name]);
  if (value === null) return fallback;
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < min || n > max) {
    throw new JobsConfigError(`${name} must be an integer from ${min} to ${max}`);
  }
  return n;
}

function flag(env: Env, name: string): boolean {
  const value = text(env[name])?.toLowerCase() ?? 'false';
  if (value === 'true' || value === '1' || value === 'yes') return true;
  if (value === 'false' || value === '0' || value === 'no') return false;
  throw new JobsConfigError(`${name} must be true or false`);
}

/** `whsec_` + base64 of at least 24 bytes (Standard Webhooks recommends 24 to 64). */
function webhookSecret(value: string | undefined): string | null {
  const secret = text(value);
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
