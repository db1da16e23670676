/**
 * Embedded mode (no REDIS_URL): the same endpoints, jobs run inside the API process through the
 * same `runBulkJob`, at most HLA_SERVICE_WORKER_CONCURRENCY at once, at most
 * HLA_SERVICE_EMBEDDED_MAX_QUEUED waiting (503 beyond). Single node: inputs and status records
 * live in this process's memory only, so a restart loses queued and running jobs.
 */
import { randomUUID } from 'node:crypto';
import { RequestError } from '../errors.ts';
import type { Engine } from '../nomenclature/engine-types.ts';
import type { JobsConfig } from './config.ts';
import { failJob, JobFailure, runBulkJob, type JobLog, type JobRunnerDeps } from './run-job.ts';
import { MemoryStatusStore, queuedRecord, toJobStatus } from './status-store.ts';
import { ownerDigest } from './owner.ts';
import type { BulkInput, BulkJobData, JobService, JobStatus, JobSubmission, SubmitReceipt, Submitter } from './types.ts';
import { CallbackSender } from './webhook.ts';

interface Pending {
  readonly jobId: string;
  readonly data: BulkJobData;
  input: BulkInput | null;
}

export interface EmbeddedJobServiceOptions {
  readonly config: JobsConfig;
  engineFor(tag: string): Promise<Engine>;
  readonly log: JobLog;
}

export class EmbeddedJobService implements JobService {
  readonly mode = 'embedded' as const;
  readonly maxBytes: number;
  readonly allowPrivateCallbacks: boolean;
  private readonly statuses: MemoryStatusStore;
  private readonly deps: JobRunnerDeps;
  private readonly waiting: Pending[] = [];
  private readonly running = new Set<Promise<void>>();
  private closed = false;

  constructor(private readonly options: EmbeddedJobServiceOptions) {
    const { config } = options;
    if (config.webhookSecret === null) throw new Error('EmbeddedJobService needs HLA_SERVICE_WEBHOOK_SECRET');
    this.maxBytes = config.maxBytes;
    this.allowPrivateCallbacks = config.allowPrivateCallbacks;
    this.statuses = new MemoryStatusStore({
      pendingSeconds: config.inputTtlSeconds + config.statusTtlSeconds,
      finishedSeconds: config.statusTtlSeconds,
    });
    this.deps = {
      engineFor: options.engineFor,
      sender: new CallbackSender({
        secret: config.webhookSecret,
        policy: config.callback,
        allowPrivate: config.allowPrivateCallbacks,
      }),
      status: this.statuses,
      log: options.log,
    };
  }

  async submit(submission: JobSubmission): Promise<SubmitReceipt> {
    if (this.closed) throw new RequestError('queue_unavailable', 'The service is shutting down; retry later.');
    if (this.waiting.length >= this.options.config.embeddedMaxQueued && this.running.size >= this.options.config.concurrency) {
      throw new RequestError('queue_unavailable', 'Too many bulk jobs are waiting on this single-node service; retry later.');
    }
    const jobId = randomUUID();
    const data: BulkJobData = {
      spec: submission.spec,
      callbackUrl: submission.callbackUrl,
      owner: this.ownerOf(submission.submitter),
      submittedAt: Date.now(),
    };
    await this.statuses.create(jobId, queuedRecord(data, submission.rowsEstimate));
    this.waiting.push({ jobId, data, input: submission.input });
    this.pump();
    return { jobId };
  }

  async status(jobId: string, caller: Submitter): Promise<JobStatus | null> {
    const record = await this.statuses.get(jobId);
    if (record === null || record.owner !== this.ownerOf(caller)) return null;
    return toJobStatus(jobId, record);
  }

  /** Stops taking jobs, lets running ones finish, fails the waiting ones (with their notices). */
  async close(): Promise<void> {
    this.closed = true;
    const dropped = this.waiting.splice(0);
    await Promise.allSettled([
      ...this.running,
      ...dropped.map((job) => failJob(this.deps, job.jobId, job.data, 'the service stopped before the job ran', 0)),
    ]);
    this.statuses.close();
  }

  private ownerOf(submitter: Submitter): string {
    return ownerDigest(submitter, this.options.config.webhookSecret as string);
  }

  private pump(): void {
    while (!this.closed && this.running.size < this.options.config.concurrency && this.waiting.length > 0) {
      const job = this.waiting.shift() as Pending;
      const input = job.input;
      job.input = null; // the queue entry no longer holds the content
      const task = runBulkJob(this.deps, job.jobId, job.data, input)
        .then(
          () => undefined,
          (error: unknown) => {
            if (!(error instanceof JobFailure)) {
              this.options.log.error({ job_id: job.jobId, error_type: (error as Error)?.name }, 'embedded job error');
            }
          },
        )
        .finally(() => {
          this.running.delete(task);
          this.pump();
        });
      this.running.add(task);
    }
  }
}
