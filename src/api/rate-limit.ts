/**
 * Per-minute request limits: fixed one-minute windows aligned to the clock, counted per caller
 * (`ip:<address>` or `key:<label>`). In memory for one process, or in Redis (INCR + PEXPIRE) so
 * that every API process behind a balancer shares one count.
 */
import type { Redis } from 'ioredis';
import type { Logger } from './logger.ts';

const WINDOW_MS = 60_000;

export interface RateLimitDecision {
  readonly allowed: boolean;
  readonly limit: number;
  readonly remaining: number;
  /** Seconds until the current window ends (the Retry-After of a 429). */
  readonly resetSeconds: number;
}

export interface RateLimiter {
  /** Counts one request of `id` and says whether it is within `limit` per minute. */
  hit(id: string, limit: number): RateLimitDecision | Promise<RateLimitDecision>;
}

function decision(count: number, limit: number, now: number): RateLimitDecision {
  const resetSeconds = Math.max(1, Math.ceil((WINDOW_MS - (now % WINDOW_MS)) / 1000));
  return { allowed: count <= limit, limit, remaining: Math.max(0, limit - count), resetSeconds };
}

/** One process's counts. All windows end together, so a new minute simply starts a new map. */
export class MemoryRateLimiter implements RateLimiter {
  private window = -1;
  private counts = new Map<string, number>();

  constructor(private readonly now: () => number = Date.now) {}

  hit(id: string, limit: number): RateLimitDecision {
    const now = this.now();
    const window = Math.floor(now / WINDOW_MS);
    if (window !== this.window) {
      this.window = window;
      this.counts = new Map();
    }
    const count = (this.counts.get(id) ?? 0) + 1;
    this.counts.set(id, count);
    return decision(count, limit, now);
  }
}

/**
 * Counts shared through Redis. When Redis does not answer, requests are let through (and the
 * failure is logged, at most once a minute): a limiter outage must not take the service down.
 */
export class RedisRateLimiter implements RateLimiter {
  private lastFailureLog = 0;

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly log: Logger,
    private readonly now: () => number = Date.now,
  ) {}

  async hit(id: string, limit: number): Promise<RateLimitDecision> {
    const now = this.now();
    const window = Math.floor(now / WINDOW_MS);
    const key = `${this.prefix}rl:${id}:${window}`;
    try {
      const results = await this.redis.multi().incr(key).pexpire(key, WINDOW_MS + 1_000).exec();
      const [error, count] = results?.[0] ?? [new Error('empty transaction result'), 0];
      if (error) throw error;
      return decision(Number(count), limit, now);
    } catch (error) {
      if (now - this.lastFailureLog > WINDOW_MS) {
        this.lastFailureLog = now;
        this.log.error({ err: error }, 'rate limiter: Redis did not answer; requests are not limited meanwhile');
      }
      return decision(0, limit, now);
    }
  }
}
