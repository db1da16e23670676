/**
 * What the routes and hooks of one app share, built once by `buildApp`, and the request
 * decorations every `/v1` route (the bulk-jobs routes included) can rely on.
 */
import type { ServiceConfig } from '../config.ts';
import type { Engine } from '../nomenclature/engine-types.ts';
import type { ReleaseCatalog } from '../releases.ts';
import type { Caller, KeyRing } from './callers.ts';
import type { RateLimiter } from './rate-limit.ts';
import type { UsageMeter } from './usage-meter.ts';

export interface ApiContext {
  readonly config: ServiceConfig;
  readonly catalog: ReleaseCatalog;
  /** Null in open demo mode (HLA_SERVICE_API_KEYS unset). */
  readonly keyring: KeyRing | null;
  readonly limiter: RateLimiter;
  readonly meter: UsageMeter;
  /** The engine a caller's answers come from: its key's pinned release, or the default. */
  engineOf(caller: Caller): Engine;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the onRequest hook on every request: the key's caller, or anonymous. */
    caller: Caller;
    /** The release engine answering this request (per-key pin, or the default release). */
    engine: Engine;
  }
  interface FastifyContextConfig {
    /** Operation name for metering (default: the path segment after `/v1/`); false = not metered. */
    operation?: string | false;
    /** Marks the generated 405 routes (not documented, not metered). */
    methodNotAllowed?: boolean;
  }
}
