/**
 * Where a queued job's content waits (queue mode): a Redis hash `<prefix>jobs:input:<id>` with
 * the CSV (and, for a donor search, the recipient JSON), never inside the BullMQ job.
 *
 * Lifecycle — the trade-off is in docs/bulk-jobs.md "What is kept":
 *   submit   → `input:<id>`, TTL HLA_SERVICE_JOB_INPUT_TTL_S (an upper bound on the whole stay);
 *   claim    → renamed to `processing:<id>` when a worker first reads it (TTL renewed), so the
 *              queue no longer holds it, yet a worker that dies mid-job leaves it for the retry;
 *   discard  → deleted once the result is delivered or the job has finally failed.
 * Results are never written to Redis.
 */
import type { Redis } from 'ioredis';
import type { Typing } from '../matching/types.ts';
import type { BulkInput } from './types.ts';

export interface JobKeys {
  /** BullMQ `prefix` option: its keys are `<bullPrefix>:<queue>:…`. */
  readonly bullPrefix: string;
  input(jobId: string): string;
  processing(jobId: string): string;
  status(jobId: string): string;
}

export function jobKeys(redisPrefix: string): JobKeys {
  const base = `${redisPrefix}jobs`;
  return {
    bullPrefix: base,
    input: (jobId) => `${base}:input:${jobId}`,
    processing: (jobId) => `${base}:processing:${jobId}`,
    status: (jobId) => `${base}:status:${jobId}`,
  };
}

const CLAIM = `
if redis.call('EXISTS', KEYS[1]) == 1 then redis.call('RENAME', KEYS[1], KEYS[2]) end
if redis.call('EXISTS', KEYS[2]) == 0 then return false end
redis.call('EXPIRE', KEYS[2], ARGV[1])
return redis.call('HGETALL', KEYS[2])`;

export class RedisInputStore {
  constructor(
    private readonly redis: Redis,
    private readonly keys: JobKeys,
    private readonly ttlSeconds: number,
  ) {}

  /** Field/value pairs of the input hash, for the submit transaction. */
  static fields(input: BulkInput): Record<string, Buffer | string> {
    const fields: Record<string, Buffer | string> = { csv: input.csv };
    if (input.recipient !== undefined) fields.recipient = JSON.stringify(input.recipient);
    return fields;
  }

  /**
   * Moves the input to the processing key (first claim) and returns it; a retried job finds it
   * there. Null when neither key exists (expired, or already discarded).
   */
  async claim(jobId: string): Promise<BulkInput | null> {
    const flat = (await this.redis.callBuffer('EVAL', [
      CLAIM,
      2,
      this.keys.input(jobId),
      this.keys.processing(jobId),
      this.ttlSeconds,
    ])) as Buffer[] | null;
    if (flat === null) return null;
    let csv: Buffer | null = null;
    let recipient: Typing | undefined;
    for (let i = 0; i + 1 < flat.length; i += 2) {
      const field = flat[i].toString();
      if (field === 'csv') csv = flat[i + 1];
      else if (field === 'recipient') recipient = JSON.parse(flat[i + 1].toString('utf8')) as Typing;
    }
    return csv === null ? null : { csv, recipient };
  }

  async discard(jobId: string): Promise<void> {
    await this.redis.del(this.keys.input(jobId), this.keys.processing(jobId));
  }
}
