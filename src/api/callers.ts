/**
 * Who is calling: a configured key (by its label) or an anonymous IP address. Keys are compared
 * in constant time over their SHA-256 digests; the key itself is never logged or stored.
 */
import { hash, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { ApiKeyEntry } from '../config.ts';
import { RequestError } from '../errors.ts';

export type Caller =
  | { readonly kind: 'key'; readonly label: string; readonly rpm: number | null; readonly tag: string | null }
  | { readonly kind: 'anonymous' };

export const ANONYMOUS: Caller = Object.freeze({ kind: 'anonymous' });

export class KeyRing {
  private readonly digests: readonly Buffer[];
  private readonly callers: readonly Caller[];

  constructor(entries: readonly ApiKeyEntry[]) {
    this.digests = entries.map((entry) => digest(entry.key));
    this.callers = entries.map((entry) =>
      Object.freeze({ kind: 'key' as const, label: entry.label, rpm: entry.rpm, tag: entry.tag }),
    );
  }

  get size(): number {
    return this.digests.length;
  }

  /** The caller a presented key belongs to, or null. Every configured key is compared. */
  identify(presented: string): Caller | null {
    const candidate = digest(presented);
    let found = -1;
    for (let i = 0; i < this.digests.length; i++) {
      // No early exit: the time taken does not depend on which key matched.
      if (timingSafeEqual(candidate, this.digests[i]) && found < 0) found = i;
    }
    return found < 0 ? null : this.callers[found];
  }
}

function digest(key: string): Buffer {
  return hash('sha256', key, 'buffer'); // one-shot: no Hash object per request
}

/**
 * The key a request presents: `X-API-Key: <key>` (preferred when both are sent) or
 * `Authorization: Bearer <key>`. Undefined when the request presents none. An Authorization
 * header of another scheme is a presented-but-unusable credential: 401, never anonymous.
 */
export function presentedKey(headers: IncomingHttpHeaders): string | undefined {
  const apiKey = headers['x-api-key'];
  if (apiKey !== undefined) return Array.isArray(apiKey) ? apiKey.join(',') : apiKey.trim();
  const authorization = headers.authorization;
  if (authorization === undefined) return undefined;
  const match = /^Bearer[ ]+(\S+)\s*$/i.exec(authorization);
  if (match === null) {
    throw new RequestError('unauthorized', 'Authorization must be "Bearer <key>"; or send the key in X-API-Key');
  }
  return match[1];
}
