/**
 * A job's status record: state, row counts and times — the only trace a job leaves once it is
 * done, readable by its owner for HLA_SERVICE_JOB_STATUS_TTL_S. Two stores: a Redis hash per job
 * (queue mode; API and workers share it) and a map (embedded mode).
 */
import type { Redis } from 'ioredis';
import type { BulkJobData, JobKind, JobState, JobStatus } from './types.ts';

export interface StatusRecord {
  readonly kind: JobKind;
  readonly owner: string;
  readonly state: JobState;
  readonly rowsDone: number;
  readonly rowsTotal: number;
  readonly rowErrors: number;
  readonly submittedAt: number;
  readonly startedAt: number | null;
  readonly finishedAt: number | null;
  readonly failureReason: string | null;
}

/** The record of a job just accepted: queued, nothing done yet. */
export function queuedRecord(data: BulkJobData, rowsEstimate: number): StatusRecord {
  return {
    kind: data.spec.kind,
    owner: data.owner,
    state: 'queued',
    rowsDone: 0,
    rowsTotal: rowsEstimate,
    rowErrors: 0,
    submittedAt: data.submittedAt,
    startedAt: null,
    finishedAt: null,
    failureReason: null,
  };
}

export type Finish =
  | { readonly state: 'completed'; readonly rows: number; readonly rowErrors: number }
  | { readonly state: 'failed'; readonly reason: string };

/** What the job runner writes as it goes. Writes are best effort: a lost one never fails a job. */
export interface StatusWriter {
  started(jobId: string): Promise<void>;
  progress(jobId: string, rowsDone: number, rowsTotal?: number): Promise<void>;
  finished(jobId: string, finish: Finish): Promise<void>;
}

export interface StatusStore extends StatusWriter {
  create(jobId: string, record: StatusRecord): Promise<void>;
  get(jobId: string): Promise<StatusRecord | null>;
}

export function toJobStatus(jobId: string, record: StatusRecord): JobStatus {
  const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());
  const status: JobStatus = {
    job_id: jobId,
    kind: record.kind,
    state: record.state,
    progress: { rows_done: record.rowsDone, rows_total: Math.max(record.rowsTotal, record.rowsDone) },
    row_errors: record.rowErrors,
    submitted_at: iso(record.submittedAt) as string,
    started_at: iso(record.startedAt),
    finished_at: iso(record.finishedAt),
  };
  if (record.state === 'failed') status.failure_reason = record.failureReason ?? 'unknown';
  return status;
}

// ---- Redis: one hash per job ----------------------------------------------------------------

const UPDATE_IF_PRESENT = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], unpack(ARGV, 2))
if tonumber(ARGV[1]) > 0 then redis.call('EXPIRE', KEYS[1], ARGV[1]) end
return 1`;

export class RedisStatusStore implements StatusStore {
  constructor(
    private readonly redis: Redis,
    private readonly keyOf: (jobId: string) => string,
    /** TTL while the job is pending (input TTL + status TTL) and once it is finished. */
    private readonly ttl: { readonly pendingSeconds: number; readonly finishedSeconds: number },
  ) {}

  /** Field/value pairs of a new record, for the submit transaction. */
  static fields(record: StatusRecord): Record<string, string> {
    return {
      kind: record.kind,
      owner: record.owner,
      state: record.state,
      done: String(record.rowsDone),
      total: String(record.rowsTotal),
      errors: String(record.rowErrors),
      submitted: String(record.submittedAt),
    };
  }

  async create(jobId: string, record: StatusRecord): Promise<void> {
    const key = this.keyOf(jobId);
    await this.redis.multi().hset(key, RedisStatusStore.fields(record)).expire(key, this.ttl.pendingSeconds).exec();
  }

  async started(jobId: string): Promise<void> {
    await this.update(jobId, { state: 'active', started: String(Date.now()), done: '0' }, 0);
  }

  async progress(jobId: string, rowsDone: number, rowsTotal?: number): Promise<void> {
    const fields: Record<string, string> = { done: String(rowsDone) };
    if (rowsTotal !== undefined) fields.total = String(rowsTotal);
    await this.update(jobId, fields, 0);
  }

  async finished(jobId: string, finish: Finish): Promise<void> {
    const fields: Record<string, string> = { state: finish.state, finished: String(Date.now()) };
    if (finish.state === 'completed') {
      fields.done = String(finish.rows);
      fields.total = String(finish.rows);
      fields.errors = String(finish.rowErrors);
    } else {
      fields.reason = finish.reason;
    }
    await this.update(jobId, fields, this.ttl.finishedSeconds);
  }

  /** Updates an existing record only: one that expired stays gone (no TTL-less leftovers). */
  private async update(jobId: string, fields: Record<string, string>, ttlSeconds: number): Promise<void> {
    await this.redis.eval(UPDATE_IF_PRESENT, 1, this.keyOf(jobId), String(ttlSeconds), ...Object.entries(fields).flat());
  }

  async get(jobId: string): Promise<StatusRecord | null> {
    const h = await this.redis.hgetall(this.keyOf(jobId));
    if (h.kind === undefined || h.owner === undefined) return null;
    const num = (value: string | undefined): number | null => (value === undefined ? null : Number(value));
    return {
      kind: h.kind as JobKind,
      owner: h.owner,
      state: h.state as JobState,
      rowsDone: num(h.done) ?? 0,
      rowsTotal: num(h.total) ?? 0,
      rowErrors: num(h.errors) ?? 0,
      submittedAt: num(h.submitted) ?? 0,
      startedAt: num(h.started),
      finishedAt: num(h.finished),
      failureReason: h.reason ?? null,
    };
  }
}

// ---- Memory: embedded mode --------------------------------------------------------------------

export class MemoryStatusStore implements StatusStore {
  private readonly records = new Map<string, { record: StatusRecord; expiresAt: number }>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(private readonly ttl: { readonly pendingSeconds: number; readonly finishedSeconds: number }) {
    this.sweeper = setInterval(() => this.sweep(), 60_000);
    this.sweeper.unref();
  }

  async create(jobId: string, record: StatusRecord): Promise<void> {
    this.records.set(jobId, { record, expiresAt: Date.now() + this.ttl.pendingSeconds * 1000 });
  }

  async started(jobId: string): Promise<void> {
    this.update(jobId, { state: 'active', startedAt: Date.now(), rowsDone: 0 });
  }

  async progress(jobId: string, rowsDone: number, rowsTotal?: number): Promise<void> {
    this.update(jobId, rowsTotal === undefined ? { rowsDone } : { rowsDone, rowsTotal });
  }

  async finished(jobId: string, finish: Finish): Promise<void> {
    const changes: Partial<StatusRecord> =
      finish.state === 'completed'
        ? { state: 'completed', rowsDone: finish.rows, rowsTotal: finish.rows, rowErrors: finish.rowErrors }
        : { state: 'failed', failureReason: finish.reason };
    this.update(jobId, { ...changes, finishedAt: Date.now() }, this.ttl.finishedSeconds);
  }

  async get(jobId: string): Promise<StatusRecord | null> {
    const entry = this.records.get(jobId);
    if (entry === undefined) return null;
    if (entry.expiresAt <= Date.now()) {
      this.records.delete(jobId);
      return null;
    }
    return entry.record;
  }

  close(): void {
    clearInterval(this.sweeper);
    this.records.clear();
  }

  private update(jobId: string, changes: Partial<StatusRecord>, ttlSeconds?: number): void {
    const entry = this.records.get(jobId);
    if (entry === undefined) return;
    entry.record = { ...entry.record, ...changes };
    if (ttlSeconds !== undefined) entry.expiresAt = Date.now() + ttlSeconds * 1000;
  }

  private sweep(): void {
    const now = Date.now();
    for (const [jobId, entry] of this.records) if (entry.expiresAt <= now) this.records.delete(jobId);
  }
}
