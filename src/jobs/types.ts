/**
 * The bulk-jobs vocabulary shared by the API (submit, status) and the workers (process, deliver):
 * queue name, job payloads, job states and the `JobService` both deployments implement.
 *
 * A job's payload (`BulkJobData`) is metadata only: what to do with the CSV, never the CSV itself
 * nor a typing. Content travels separately (`BulkInput`), is held only until the result is
 * delivered, and results are never stored anywhere (docs/bulk-jobs.md "What is kept").
 */
import type { Framework, Typing } from '../matching/types.ts';

/** BullMQ queue name; the Redis keys live under `<HLA_SERVICE_REDIS_PREFIX>jobs:bulk:`. */
export const BULK_QUEUE = 'bulk';

export const JOB_KINDS = ['normalize', 'match'] as const;
export type JobKind = (typeof JOB_KINDS)[number];

/** Donor search: one recipient (JSON) against a donors CSV; pairs: both typings on each row. */
export type MatchMode = 'search' | 'pairs';

export interface NormalizeSpec {
  readonly kind: 'normalize';
  /** Release tag whose engine answers (the submitting key's pin). */
  readonly tag: string;
  /** Header names of the typing columns, in request order, each once. */
  readonly columns: readonly string[];
}

export interface MatchSpec {
  readonly kind: 'match';
  readonly tag: string;
  readonly mode: MatchMode;
  readonly framework: Framework;
}

export type JobSpec = NormalizeSpec | MatchSpec;

/** BullMQ job data: what, for whom, where to deliver. No content. */
export interface BulkJobData {
  readonly spec: JobSpec;
  readonly callbackUrl: string;
  /** Keyed digest of the submitting caller (key label or anonymous IP); see `ownerDigest`. */
  readonly owner: string;
  readonly submittedAt: number;
}

/** The content of a job, held apart from the job data and removed once the result is delivered. */
export interface BulkInput {
  readonly csv: Buffer;
  /** Donor search only: the recipient typing. */
  readonly recipient?: Typing;
}

/** Everything `JobService.submit` needs; built and validated by `src/jobs/submission.ts`. */
export interface JobSubmission {
  readonly spec: JobSpec;
  /** Checked by `checkCallbackUrl`. */
  readonly callbackUrl: string;
  /** Who submits; the service stores only a keyed digest of it (`ownerDigest`). */
  readonly submitter: Submitter;
  readonly input: BulkInput;
  /** Data rows counted at submit (a newline count: exact unless fields hold line breaks). */
  readonly rowsEstimate: number;
}

export const JOB_STATES = ['queued', 'active', 'completed', 'failed'] as const;
export type JobState = (typeof JOB_STATES)[number];

/** What `GET /v1/jobs/{id}` answers: state, counts and times, never content. */
export interface JobStatus {
  job_id: string;
  kind: JobKind;
  state: JobState;
  progress: { rows_done: number; rows_total: number };
  /** Rows that got an `error` cell in the result. */
  row_errors: number;
  submitted_at: string;
  started_at: string | null;
  finished_at: string | null;
  /** Only for `failed`: why, in words that name no content. */
  failure_reason?: string;
}

/** Who submits: the key's label, or the anonymous caller's IP address. */
export type Submitter = { readonly kind: 'key'; readonly label: string } | { readonly kind: 'anonymous'; readonly ip: string };

export interface SubmitReceipt {
  readonly jobId: string;
}

/**
 * Bulk jobs as the API sees them. Two implementations, chosen by configuration: BullMQ workers
 * (`QueueJobService`, when REDIS_URL is set) and in-process (`EmbeddedJobService`, single node).
 */
export interface JobService {
  readonly mode: 'queue' | 'embedded' | 'disabled';
  /** Largest accepted CSV, in bytes (HLA_SERVICE_JOB_MAX_BYTES). */
  readonly maxBytes: number;
  /** Whether private/loopback callback addresses are accepted (tests, closed networks). */
  readonly allowPrivateCallbacks: boolean;
  /** Enqueues the job. Throws `RequestError('queue_unavailable')` (503) when the queue cannot take it. */
  submit(submission: JobSubmission): Promise<SubmitReceipt>;
  /** The job's status, or null when it does not exist, has expired or belongs to another caller. */
  status(jobId: string, caller: Submitter): Promise<JobStatus | null>;
  close(): Promise<void>;
}

/** What a finished job reports (BullMQ return value: counts only). */
export interface JobOutcome {
  readonly rows: number;
  readonly rowErrors: number;
}
