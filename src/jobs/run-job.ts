/**
 * One job, start to finish: process the CSV, deliver the result, record the status — the same
 * steps for a BullMQ worker and for embedded mode, which differ only in where the input comes
 * from and where the status is kept.
 *
 * A job that cannot finish ends `failed` with a reason that names no content, and its failure
 * notice (JSON) goes to the callback URL — except when what failed was delivering the result to
 * that same URL: the reason is then in the status, and nothing more is sent.
 */
import { RequestError } from '../errors.ts';
import type { Engine } from '../nomenclature/engine-types.ts';
import { processBulkJob } from './processor.ts';
import type { StatusWriter } from './status-store.ts';
import type { BulkInput, BulkJobData, JobOutcome } from './types.ts';
import { failureMessageId, resultMessageId, type CallbackSender, type FailureNotice } from './webhook.ts';

export interface JobLog {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
}

export interface JobRunnerDeps {
  engineFor(tag: string): Promise<Engine>;
  readonly sender: CallbackSender;
  readonly status: StatusWriter;
  readonly log: JobLog;
  /** Least time between two progress writes. */
  readonly progressIntervalMs?: number;
}

/** A failure already recorded and announced: the caller only has to let the job fail. */
export class JobFailure extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'JobFailure';
  }
}

export async function runBulkJob(
  deps: JobRunnerDeps,
  jobId: string,
  data: BulkJobData,
  input: BulkInput | null,
): Promise<JobOutcome> {
  const { status, log } = deps;
  const kind = data.spec.kind;
  const started = performance.now();
  await quietly(status.started(jobId));
  if (input === null) return failJob(deps, jobId, data, 'the input expired before the job ran', 0);

  let engine: Engine;
  try {
    engine = await deps.engineFor(data.spec.tag);
  } catch {
    return failJob(deps, jobId, data, 'the release this job was submitted under could not be loaded', 0);
  }

  let rowsDone = 0;
  let lastWrite = 0;
  const interval = deps.progressIntervalMs ?? 500;
  let result;
  try {
    result = await processBulkJob(engine, data.spec, input, (rows) => {
      rowsDone = rows;
      const now = performance.now();
      if (now - lastWrite >= interval) {
        lastWrite = now;
        void quietly(status.progress(jobId, rows));
      }
    });
  } catch (error) {
    // The layout was checked at submit; a RequestError here means the stored input changed.
    const reason =
      error instanceof RequestError ? `the CSV could not be processed: ${error.detail}` : 'internal error while processing the CSV';
    if (!(error instanceof RequestError)) log.error({ job_id: jobId, kind, error_type: (error as Error)?.name }, 'job processing error');
    return failJob(deps, jobId, data, reason, rowsDone);
  }
  await quietly(status.progress(jobId, result.rows, result.rows));

  const processedMs = Math.round(performance.now() - started);
  const delivery = await deps.sender.deliver(data.callbackUrl, {
    id: resultMessageId(jobId),
    body: result.csv,
    contentType: 'text/csv; charset=utf-8',
    headers: {
      'x-hla-job-id': jobId,
      'x-hla-job-kind': kind,
      'x-hla-release': engine.release,
      'x-hla-rows': String(result.rows),
      'x-hla-row-errors': String(result.rowErrors),
    },
  });
  if (!delivery.delivered) {
    const reason = `callback delivery failed after ${delivery.attempts} attempt(s) (last: ${delivery.lastFailure})`;
    await quietly(status.finished(jobId, { state: 'failed', reason }));
    log.warn({ job_id: jobId, kind, rows: result.rows, attempts: delivery.attempts, last: delivery.lastFailure }, 'job failed: result not delivered');
    throw new JobFailure(reason);
  }
  await quietly(status.finished(jobId, { state: 'completed', rows: result.rows, rowErrors: result.rowErrors }));
  log.info(
    {
      job_id: jobId,
      kind,
      rows: result.rows,
      row_errors: result.rowErrors,
      bytes_out: result.csv.length,
      process_ms: processedMs,
      total_ms: Math.round(performance.now() - started),
      delivery_attempts: delivery.attempts,
    },
    'job completed',
  );
  return { rows: result.rows, rowErrors: result.rowErrors };
}

/**
 * Records the failure, sends the failure notice, and throws `JobFailure`. Also used for jobs the
 * processor never ran (e.g. a job whose workers kept dying: BullMQ fails it as stalled).
 */
export async function failJob(
  deps: Pick<JobRunnerDeps, 'sender' | 'status' | 'log'>,
  jobId: string,
  data: BulkJobData,
  reason: string,
  rowsDone: number,
): Promise<never> {
  await quietly(deps.status.finished(jobId, { state: 'failed', reason }));
  const notice: FailureNotice = {
    type: 'job.failed',
    job_id: jobId,
    kind: data.spec.kind,
    reason,
    rows_done: rowsDone,
    failed_at: new Date().toISOString(),
  };
  const delivery = await deps.sender.deliver(data.callbackUrl, {
    id: failureMessageId(jobId),
    body: Buffer.from(JSON.stringify(notice)),
    contentType: 'application/json',
    headers: { 'x-hla-job-id': jobId },
  });
  deps.log.warn(
    { job_id: jobId, kind: data.spec.kind, reason, notice_delivered: delivery.delivered, attempts: delivery.attempts },
    'job failed',
  );
  throw new JobFailure(reason);
}

/** Status writes are best effort: Redis hiccups must not fail a job that is otherwise fine. */
async function quietly(write: Promise<void>): Promise<void> {
  try {
    await write;
  } catch {
    // The status may lag; the job's own outcome is what matters.
  }
}
