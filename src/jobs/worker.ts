/**
 * BullMQ wiring of the bulk processor (workers/bulk-worker.ts runs it as its own process).
 *
 * A worker claims the job's input (moving it to the processing key), runs `runBulkJob`, and
 * discards the input once the result is delivered or the job has failed. A worker that dies
 * mid-job leaves its lock to expire; another worker's stalled check puts the job back, and the
 * retry finds the input under the processing key and delivers with the same `webhook-id`.
 * Completed and failed jobs are removed from Redis at once; the status record keeps the counts.
 */
import { Worker, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import type { Engine } from '../nomenclature/engine-types.ts';
import type { JobsConfig } from './config.ts';
import { jobKeys, RedisInputStore } from './input-store.ts';
import { failJob, JobFailure, runBulkJob, type JobLog, type JobRunnerDeps } from './run-job.ts';
import { RedisStatusStore } from './status-store.ts';
import { BULK_QUEUE, type BulkJobData, type JobOutcome } from './types.ts';
import { CallbackSender } from './webhook.ts';

export interface BulkWorkerOptions {
  readonly config: JobsConfig;
  engineFor(tag: string): Promise<Engine>;
  readonly log: JobLog;
}

export interface BulkWorker {
  readonly worker: Worker<BulkJobData, JobOutcome>;
  /** Stops taking jobs, lets running ones finish (result delivered), then disconnects. */
  close(): Promise<void>;
}

export function startBulkWorker(options: BulkWorkerOptions): BulkWorker {
  const { config, log } = options;
  if (config.redisUrl === null) throw new Error('REDIS_URL is required for a bulk worker');
  if (config.webhookSecret === null) throw new Error('HLA_SERVICE_WEBHOOK_SECRET is required for a bulk worker');
  const redis = new Redis(config.redisUrl, { maxRetriesPerRequest: null });
  redis.on('error', () => {}); // reconnects by itself; BullMQ reports on the worker
  const keys = jobKeys(config.redisPrefix);
  const inputs = new RedisInputStore(redis, keys, config.inputTtlSeconds);
  const status = new RedisStatusStore(redis, keys.status, {
    pendingSeconds: config.inputTtlSeconds + config.statusTtlSeconds,
    finishedSeconds: config.statusTtlSeconds,
  });
  const sender = new CallbackSender({
    secret: config.webhookSecret,
    policy: config.callback,
    allowPrivate: config.allowPrivateCallbacks,
  });
  const deps: JobRunnerDeps = { engineFor: options.engineFor, sender, status, log };

  /** The processor as BullMQ sees it: claim, run, discard. */
  const processor = async (job: Job<BulkJobData, JobOutcome>): Promise<JobOutcome> => {
    const jobId = job.id as string;
    log.info({ job_id: jobId, kind: job.data.spec.kind, attempt: job.attemptsStarted }, 'job started');
    const input = await inputs.claim(jobId);
    try {
      return await runBulkJob(deps, jobId, job.data, input);
    } finally {
      await inputs.discard(jobId).catch(() => {});
    }
  };

  const worker = new Worker<BulkJobData, JobOutcome>(BULK_QUEUE, processor, {
    connection: { url: config.redisUrl },
    prefix: keys.bullPrefix,
    concurrency: config.concurrency,
    lockDuration: config.worker.lockDurationMs,
    stalledInterval: config.worker.stalledIntervalMs,
    maxStalledCount: config.worker.maxStalledCount,
    removeOnComplete: { count: 0 },
    removeOnFail: { count: 0 },
  });

  // Failures the processor did not handle itself: a job whose workers kept dying (BullMQ fails it
  // as stalled), or an error before `runBulkJob` (Redis gone while claiming the input).
  const pending = new Set<Promise<unknown>>();
  worker.on('failed', (job, error) => {
    if (job === undefined || error instanceof JobFailure || error?.name === 'JobFailure') return;
    const jobId = job.id as string;
    const stalled = /stalled/i.test(error?.message ?? '');
    const reason = stalled
      ? 'the job was interrupted too many times (its workers stopped while processing it)'
      : 'internal error before processing';
    // The input is not needed any more: gone first, then the status and the notice.
    const task = inputs
      .discard(jobId)
      .catch(() => {})
      .then(() => failJob(deps, jobId, job.data, reason, 0))
      .catch(() => {});
    pending.add(task);
    void task.finally(() => pending.delete(task));
  });
  worker.on('stalled', (jobId) => log.warn({ job_id: jobId }, 'job stalled: its worker stopped; it will run again'));
  worker.on('error', (error) => log.error({ error_type: error?.name, code: (error as NodeJS.ErrnoException)?.code }, 'worker error'));

  return {
    worker,
    async close() {
      await worker.close();
      await Promise.allSettled([...pending]);
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}
