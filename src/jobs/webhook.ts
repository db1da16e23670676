/**
 * Callback delivery, Standard Webhooks style: each attempt is a POST with `webhook-id`,
 * `webhook-timestamp` and `webhook-signature`, signed by the `standardwebhooks` library with
 * HLA_SERVICE_WEBHOOK_SECRET, so a receiver verifies with the same library (docs/bulk-jobs.md).
 *
 * - The `webhook-id` is derived from the job id: the same on every attempt, and the same when a
 *   crashed worker's job is redone elsewhere, so a receiver drops duplicates by it.
 * - Each attempt is signed afresh (its own timestamp), so a late retry still verifies within the
 *   receiver's 5-minute tolerance.
 * - Non-2xx, timeouts and network errors are retried with exponential backoff (with jitter);
 *   redirects are not followed; the connection's DNS lookup refuses private addresses (unless
 *   allowed), so a name re-pointed inside after submit is refused at delivery.
 */
import http from 'node:http';
import https from 'node:https';
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { Webhook } from 'standardwebhooks';
import { isPrivateAddress } from './callback-url.ts';
import type { CallbackPolicy } from './config.ts';
import type { JobKind } from './types.ts';

export interface CallbackMessage {
  readonly id: string;
  readonly body: Buffer;
  readonly contentType: string;
  /** Informational, unsigned headers (e.g. the job id and row counts). */
  readonly headers?: Readonly<Record<string, string>>;
}

export interface DeliveryReport {
  readonly delivered: boolean;
  readonly attempts: number;
  /** What the last failed attempt got, in words that name no URL: `HTTP 500`, `ECONNREFUSED`. */
  readonly lastFailure: string | null;
}

/** `webhook-id` of a job's result; its failure notice has its own id. */
export function resultMessageId(jobId: string): string {
  return `msg_${jobId}`;
}
export function failureMessageId(jobId: string): string {
  return `msg_${jobId}_failed`;
}

/** The failure notice: JSON, no content, a reason. */
export interface FailureNotice {
  type: 'job.failed';
  job_id: string;
  kind: JobKind;
  reason: string;
  rows_done: number;
  failed_at: string;
}

export interface CallbackSenderOptions {
  readonly secret: string;
  readonly policy: CallbackPolicy;
  readonly allowPrivate: boolean;
}

const USER_AGENT = 'hla-verify-bulk-jobs/1';

export class CallbackSender {
  private readonly webhook: Webhook;
  private readonly lookup: LookupFunction;

  constructor(private readonly options: CallbackSenderOptions) {
    this.webhook = new Webhook(options.secret);
    this.lookup = options.allowPrivate ? dnsLookup : guardedLookup;
  }

  /** Signs and posts `message`, retrying per the policy. Never throws. */
  async deliver(url: string, message: CallbackMessage): Promise<DeliveryReport> {
    const { attempts, backoffMs, maxBackoffMs } = this.options.policy;
    let lastFailure: string | null = null;
    for (let attempt = 1; attempt <= attempts; attempt++) {
      const outcome = await this.attempt(url, message);
      if (outcome === null) return { delivered: true, attempts: attempt, lastFailure: null };
      lastFailure = outcome.failure;
      if (!outcome.retry || attempt === attempts) return { delivered: false, attempts: attempt, lastFailure };
      const base = Math.min(maxBackoffMs, backoffMs * 2 ** (attempt - 1));
      await sleep(Math.round(base * (0.8 + Math.random() * 0.4)));
    }
    return { delivered: false, attempts, lastFailure };
  }

  /** The signature headers of one attempt (exported through `deliver`; public for the tests). */
  sign(id: string, body: Buffer, at: Date = new Date()): Record<string, string> {
    return {
      'webhook-id': id,
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': this.webhook.sign(id, at, body),
    };
  }

  /** Null on success; otherwise what went wrong and whether another attempt may help. */
  private attempt(url: string, message: CallbackMessage): Promise<{ failure: string; retry: boolean } | null> {
    const target = new URL(url);
    const host = target.hostname.startsWith('[') ? target.hostname.slice(1, -1) : target.hostname;
    if (!this.options.allowPrivate && isIP(host) !== 0 && isPrivateAddress(host)) {
      return Promise.resolve({ failure: 'address refused', retry: false });
    }
    const client = target.protocol === 'https:' ? https : http;
    const headers = {
      'content-type': message.contentType,
      'content-length': String(message.body.length),
      'user-agent': USER_AGENT,
      ...message.headers,
      ...this.sign(message.id, message.body),
    };
    return new Promise((resolve) => {
      let settled = false;
      const finish = (value: { failure: string; retry: boolean } | null): void => {
        if (!settled) {
          settled = true;
          resolve(value);
        }
      };
      const request = client.request(
        target,
        {
          method: 'POST',
          headers,
          lookup: this.lookup,
          signal: AbortSignal.timeout(this.options.policy.timeoutMs),
          agent: false,
        },
        (response) => {
          const status = response.statusCode ?? 0;
          response.resume(); // the answer's body is not read
          response.on('end', () => finish(status >= 200 && status < 300 ? null : { failure: `HTTP ${status}`, retry: true }));
          response.on('error', () => finish({ failure: 'connection reset', retry: true }));
        },
      );
      request.on('error', (error: NodeJS.ErrnoException) => {
        if (error.code === 'EPRIVATECALLBACK') finish({ failure: 'address refused', retry: false });
        else finish({ failure: error.name === 'AbortError' ? 'timeout' : (error.code ?? 'network error'), retry: true });
      });
      request.end(message.body);
    });
  }
}

/** DNS lookup for callback connections that refuses private addresses (see callback-url.ts). */
const guardedLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
    if (error) {
      callback(error, '', 0);
      return;
    }
    if (addresses.length === 0 || addresses.some((entry) => isPrivateAddress(entry.address))) {
      const refused: NodeJS.ErrnoException = new Error('callback address refused');
      refused.code = 'EPRIVATECALLBACK';
      callback(refused, '', 0);
      return;
    }
    if (options.all) (callback as unknown as (e: null, all: LookupAddress[]) => void)(null, addresses);
    else callback(null, addresses[0].address, addresses[0].family);
  });
};
