/**
 * Bulk jobs: the entry points the API app, src/server.ts, the worker process and the bench use.
 *
 *   createJobService(config, { engineFor, log })
 *     REDIS_URL set                     → QueueJobService (BullMQ; workers/bulk-worker.ts runs jobs)
 *     REDIS_URL unset                   → EmbeddedJobService (in-process, single node)
 *     HLA_SERVICE_WEBHOOK_SECRET unset  → DisabledJobService (every job endpoint answers 503)
 */
import type { Engine } from '../nomenclature/engine-types.ts';
import type { JobsConfig } from './config.ts';
import { DisabledJobService } from './disabled-service.ts';
import { EmbeddedJobService } from './embedded-service.ts';
import { QueueJobService } from './queue-service.ts';
import type { JobLog } from './run-job.ts';
import type { JobService } from './types.ts';

export { normalizeSubmission, matchSubmission } from './submission.ts';
export { ownerDigest } from './owner.ts';
export { loadJobsConfig, JobsConfigError, DEFAULT_JOB_MAX_BYTES, type JobsConfig } from './config.ts';
export { startBulkWorker, type BulkWorker, type BulkWorkerOptions } from './worker.ts';
export { processBulkJob, type BulkResult } from './processor.ts';
export { EmbeddedJobService } from './embedded-service.ts';
export { DisabledJobService, JOBS_DISABLED_DETAIL } from './disabled-service.ts';
export { QueueJobService, QUEUE_UNAVAILABLE_DETAIL } from './queue-service.ts';
export type { JobLog } from './run-job.ts';
export * from './types.ts';

export interface JobServiceDeps {
  /** The engine of a release tag (the catalog's `engineFor`). */
  engineFor(tag: string): Promise<Engine>;
  readonly log: JobLog;
}

export function createJobService(config: JobsConfig, deps: JobServiceDeps): JobService {
  if (config.webhookSecret === null) {
    deps.log.warn({}, 'bulk jobs are disabled: HLA_SERVICE_WEBHOOK_SECRET is not set (the job endpoints answer 503)');
    return new DisabledJobService(config);
  }
  if (config.redisUrl !== null) {
    deps.log.info({ mode: 'queue' }, 'bulk jobs go to the BullMQ queue; run workers with `npm run worker`');
    return new QueueJobService(config);
  }
  deps.log.info({ mode: 'embedded', concurrency: config.concurrency }, 'bulk jobs run in this process (single node)');
  return new EmbeddedJobService({ config, engineFor: deps.engineFor, log: deps.log });
}
