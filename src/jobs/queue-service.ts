/**
 * The API side of queue mode: submit puts the input and a status record in Redis and adds a
 * BullMQ job; status reads the record. Its Redis client fails fast — no offline queue, short
 * command timeout — so when Redis is away a submit answers 503 within HLA_SERVICE_QUEUE_TIMEOUT_MS
 * and the synchronous endpoints, which never touch this client, keep answering. The client
 * reconnects by itself; submits work again as soon as Redis is back.
 */
import { randomUUID } from 'node:crypto';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { RequestError } from '../errors.ts';
import type { JobsConfig } from './config.ts';
import { jobKeys, RedisInputStore, type JobKeys } from './input-store.ts';
import { queuedRecord, RedisStatusStore, toJobStatus } from './status-store.ts';
import { ownerDigest } from './owner.ts';
import {
  BULK_QUEUE,
  type BulkJobData,
  type JobOutcome,
  type JobService,
  type JobStatus,
  type JobSubmission,
  type SubmitReceipt,
  type Submitter,
} from './types.ts';

export const QUEUE_UNAVAILABLE_DETAIL =
  'The job queue is unavailable; retry later. The synchronous endpoints are not affected.';

/** Events kept in BullMQ's stream (ids and event names only; it is trimmed approximately). */
const EVENTS_MAX_LEN = 100;

export class QueueJobService implements JobService {
  readonly mode = 'queue' as const;
  readonly maxBytes: number;
  readonly allowPrivateCallbacks: boolean;
  private readonly redis: Redis;
  private readonly queue: Queue<BulkJobData, JobOutcome>;
  private readonly keys: JobKeys;
  private readonly statuses: RedisStatusStore;
  private readonly pendingTtl: number;

  constructor(private readonly config: JobsConfig) {
    if (config.redisUrl === null) throw new Error('QueueJobService needs REDIS_URL');
    this.maxBytes = config.maxBytes;
    this.allowPrivateCallbacks = config.allowPrivateCallbacks;
    const failFast = {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      commandTimeout: config.queueTimeoutMs,
      connectTimeout: Math.max(config.queueTimeoutMs, 1000),
      retryStrategy: (times: number) => Math.min(200 * times, 2000),
    };
    this.redis = new Redis(config.redisUrl, failFast);
    this.redis.on('error', () => {}); // reported to callers as 503, not as log noise per retry
    this.keys = jobKeys(config.redisPrefix);
    // BullMQ gets options, not this client: it ships its own ioredis and makes its own connection.
    this.queue = new Queue<BulkJobData, JobOutcome>(BULK_QUEUE, {
      connection: { url: config.redisUrl, ...failFast },
      prefix: this.keys.bullPrefix,
      streams: { events: { maxLen: EVENTS_MAX_LEN } },
    });
    this.queue.on('error', () => {});
    this.pendingTtl = config.inputTtlSeconds + config.statusTtlSeconds;
    this.statuses = new RedisStatusStore(this.redis, this.keys.status, {
      pendingSeconds: this.pendingTtl,
      finishedSeconds: config.statusTtlSeconds,
    });
  }

  async submit(submission: JobSubmission): Promise<SubmitReceipt> {
    this.assertConnected();
    const jobId = randomUUID();
    const data: BulkJobData = {
      spec: submission.spec,
      callbackUrl: submission.callbackUrl,
      owner: this.ownerOf(submission.submitter),
      submittedAt: Date.now(),
    };
    const inputKey = this.keys.input(jobId);
    const statusKey = this.keys.status(jobId);
    try {
      await this.withinTimeout(
        this.redis
          .multi()
          .hset(inputKey, RedisInputStore.fields(submission.input))
          .expire(inputKey, this.config.inputTtlSeconds)
          .hset(statusKey, RedisStatusStore.fields(queuedRecord(data, submission.rowsEstimate)))
          .expire(statusKey, this.pendingTtl)
          .exec()
          .then(failOnTransactionError),
      );
      await this.withinTimeout(
        this.queue.add(data.spec.kind, data, {
          jobId,
          attempts: 1,
          removeOnComplete: true,
          removeOnFail: true,
        }),
      );
    } catch {
      // Best effort: nothing half-submitted should wait for its TTL.
      this.redis.del(inputKey, statusKey).catch(() => {});
      throw new RequestError('queue_unavailable', QUEUE_UNAVAILABLE_DETAIL);
    }
    return { jobId };
  }

  async status(jobId: string, caller: Submitter): Promise<JobStatus | null> {
    this.assertConnected();
    let record;
    try {
      record = await this.withinTimeout(this.statuses.get(jobId));
    } catch {
      throw new RequestError('queue_unavailable', QUEUE_UNAVAILABLE_DETAIL);
    }
    if (record === null || record.owner !== this.ownerOf(caller)) return null;
    return toJobStatus(jobId, record);
  }

  async close(): Promise<void> {
    await this.queue.close().catch(() => {});
    await this.redis.quit().catch(() => this.redis.disconnect());
  }

  private ownerOf(submitter: Submitter): string {
    return ownerDigest(submitter, this.config.webhookSecret ?? '');
  }

  private assertConnected(): void {
    if (this.redis.status !== 'ready') throw new RequestError('queue_unavailable', QUEUE_UNAVAILABLE_DETAIL);
  }

  /** A guard beyond the command timeout: BullMQ may wait for its connection to initialize. */
  private withinTimeout<T>(work: Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const limit = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('queue timeout')), this.config.queueTimeoutMs * 2);
    });
    return Promise.race([work, limit]).finally(() => clearTimeout(timer));
  }
}

function failOnTransactionError(results: [Error | null, unknown][] | null): void {
  if (results === null) throw new Error('transaction aborted');
  for (const [error] of results) if (error) throw error;
}
