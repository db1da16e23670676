/**
 * Metering: counts per key label, per operation, per UTC day, and nothing else (never content).
 * In memory for one process, or a Redis hash per label and day shared by every API process.
 */
import type { Redis } from 'ioredis';
import type { Logger } from './logger.ts';

const DAY_MS = 86_400_000;
/** Redis keeps a day's counts this long (then the hash expires by itself). */
const RETENTION_S = 400 * 86_400;

export interface UsageDay {
  /** UTC day, `YYYY-MM-DD`. */
  readonly date: string;
  readonly counts: Readonly<Record<string, number>>;
}

export interface UsageMeter {
  /** Counts one call; never waits and never fails the request. */
  record(label: string, operation: string): void;
  /** The last `days` UTC days (today included), newest first, days without calls left out. */
  read(label: string, days: number): Promise<UsageDay[]>;
}

/** `YYYY-MM-DD` of a UTC day number, cached: `record` runs on every call. */
class DayNames {
  private day = -1;
  private name = '';
  constructor(private readonly now: () => number) {}

  today(): { day: number; name: string } {
    const day = Math.floor(this.now() / DAY_MS);
    if (day !== this.day) {
      this.day = day;
      this.name = dayName(day);
    }
    return { day, name: this.name };
  }
}

function dayName(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

export class MemoryUsageMeter implements UsageMeter {
  private readonly days: DayNames;
  /** `label \n date` → operation → count. */
  private readonly counts = new Map<string, Map<string, number>>();

  constructor(now: () => number = Date.now) {
    this.days = new DayNames(now);
  }

  record(label: string, operation: string): void {
    const slot = `${label}\n${this.days.today().name}`;
    let perOperation = this.counts.get(slot);
    if (perOperation === undefined) {
      perOperation = new Map();
      this.counts.set(slot, perOperation);
    }
    perOperation.set(operation, (perOperation.get(operation) ?? 0) + 1);
  }

  async read(label: string, days: number): Promise<UsageDay[]> {
    const today = this.days.today().day;
    const result: UsageDay[] = [];
    for (let day = today; day > today - days; day--) {
      const date = dayName(day);
      const perOperation = this.counts.get(`${label}\n${date}`);
      if (perOperation && perOperation.size > 0) result.push({ date, counts: Object.fromEntries(perOperation) });
    }
    return result;
  }
}

export class RedisUsageMeter implements UsageMeter {
  private readonly days: DayNames;
  private lastFailureLog = 0;

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly log: Logger,
    private readonly now: () => number = Date.now,
  ) {
    this.days = new DayNames(now);
  }

  private key(label: string, date: string): string {
    return `${this.prefix}usage:${label}:${date}`;
  }

  record(label: string, operation: string): void {
    const key = this.key(label, this.days.today().name);
    this.redis
      .pipeline()
      .hincrby(key, operation, 1)
      .expire(key, RETENTION_S)
      .exec()
      .then((results) => {
        const failed = results?.find(([error]) => error);
        if (failed) throw failed[0];
      })
      .catch((error: unknown) => {
        const now = this.now();
        if (now - this.lastFailureLog > 60_000) {
          this.lastFailureLog = now;
          this.log.error({ err: error }, 'usage meter: Redis did not answer; counts are being lost');
        }
      });
  }

  async read(label: string, days: number): Promise<UsageDay[]> {
    const today = this.days.today().day;
    const dates: string[] = [];
    for (let day = today; day > today - days; day--) dates.push(dayName(day));
    const pipeline = this.redis.pipeline();
    for (const date of dates) pipeline.hgetall(this.key(label, date));
    const results = (await pipeline.exec()) ?? [];
    const usage: UsageDay[] = [];
    results.forEach(([error, hash], i) => {
      if (error) throw error;
      const entries = Object.entries((hash ?? {}) as Record<string, string>);
      if (entries.length > 0) {
        usage.push({ date: dates[i], counts: Object.fromEntries(entries.map(([op, n]) => [op, Number(n)])) });
      }
    });
    return usage;
  }
}
