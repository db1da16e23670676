/**
 * The hooks every request passes, in order:
 *   onRequest (every request)  – defaults: anonymous caller, default release, response headers;
 *   onRequest (every /v1 route) – who is calling (key or anonymous), which release answers,
 *                                 per-minute limits;
 *   onResponse                  – usage count (keyed callers, successful calls), one access-log line.
 * The /v1 hook is attached to each route whose *pattern* is under /v1, whichever plugin defines
 * it (so the bulk-jobs routes get the same authentication, limits and metering). Deciding by the
 * pattern, not by the request URL, matters: `GET http://host/v1/...` (absolute form) and
 * `/%76%31/...` reach /v1 routes with a URL that does not start with `/v1`.
 * Kept cheap: a SHA-256 of the presented key, a map lookup, a counter.
 */
import type { FastifyContextConfig, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { RequestError } from '../errors.ts';
import { ANONYMOUS, presentedKey } from './callers.ts';
import type { ApiContext } from './context.ts';
import type { RateLimitDecision } from './rate-limit.ts';

const PROTECTED = /^\/v1(?:[/?#]|$)/;

export function isProtectedPath(url: string): boolean {
  return PROTECTED.test(url);
}

export function registerRequestHooks(app: FastifyInstance, ctx: ApiContext): void {
  const { anonymous } = ctx.config;
  const defaultEngine = ctx.catalog.defaultEngine;

  // Null placeholders keep the request shape stable; the onRequest hook sets both on every request.
  app.decorateRequest('caller', null as never);
  app.decorateRequest('engine', null as never);

  /**
   * Counts the request against `limit` and calls `done` (with a 429 past the limit). Callback
   * style: the in-memory limiter answers synchronously, so the common path allocates no promise.
   */
  function enforceLimit(id: string, limit: number, reply: FastifyReply, done: (error?: Error) => void): void {
    const settle = (decision: RateLimitDecision): void => {
      reply.header('x-ratelimit-limit', limit);
      reply.header('x-ratelimit-remaining', decision.remaining);
      if (decision.allowed) return done();
      reply.header('retry-after', decision.resetSeconds);
      done(
        new RequestError(
          'rate_limited',
          `Rate limit of ${limit} requests per minute exceeded; retry after ${decision.resetSeconds} s`,
        ),
      );
    };
    const decision = ctx.limiter.hit(id, limit);
    if (decision instanceof Promise) decision.then(settle, done);
    else settle(decision);
  }

  app.addHook('onRequest', (request, reply, done) => {
    request.caller = ANONYMOUS;
    request.engine = defaultEngine;
    reply.header('x-request-id', request.id);
    reply.header('x-content-type-options', 'nosniff');
    done();
  });

  function authenticate(request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void): void {
    let presented: string | undefined;
    try {
      presented = presentedKey(request.headers);
    } catch (error) {
      return done(error as Error);
    }
    if (presented !== undefined) {
      const caller = ctx.keyring?.identify(presented) ?? null;
      if (caller === null || caller.kind !== 'key') return done(new RequestError('unauthorized', 'API key not recognized'));
      request.caller = caller;
      request.engine = ctx.engineOf(caller);
      if (caller.rpm === null) return done();
      return enforceLimit(`key:${caller.label}`, caller.rpm, reply, done);
    }
    if (anonymous === 'off') {
      return done(new RequestError('unauthorized', 'API key required: send X-API-Key: <key> or Authorization: Bearer <key>'));
    }
    if (anonymous === 'unlimited') return done();
    enforceLimit(`ip:${request.ip}`, anonymous.rpm, reply, done);
  }

  // First of the route's own onRequest hooks, so 401/429 come before a 405 or anything else.
  app.addHook('onRoute', (route) => {
    if (!isProtectedPath(route.url)) return; // /healthz, /docs, the demo page
    const own = route.onRequest === undefined ? [] : [route.onRequest].flat();
    route.onRequest = [authenticate as NonNullable<typeof route.onRequest>, ...own] as typeof route.onRequest;
  });

  app.addHook('onResponse', (request, reply, done) => {
    const caller = request.caller as FastifyRequest['caller'] | null;
    const { url: route, config } = request.routeOptions; // a getter that builds an object: read once
    const status = reply.statusCode;
    if (caller?.kind === 'key' && status < 400 && route !== undefined) {
      const operation = operationOf(route, config);
      if (operation !== null) ctx.meter.record(caller.label, operation);
    }
    // Route pattern, never the URL: an allele name in the path is request content.
    request.log.info(
      {
        method: request.method,
        route: route ?? '(unmatched)',
        status,
        ms: Math.round(reply.elapsedTime * 100) / 100,
        caller: caller === null ? undefined : caller.kind === 'key' ? caller.label : 'anonymous',
      },
      'request',
    );
    done();
  });
}

/** Per route (its config object is the route's own), computed on first use. */
const operations = new WeakMap<object, string | null>();

/**
 * The metered operation of a `/v1` route: `config.operation`, else the first path segment after
 * `/v1/` (`/v1/jobs/:id` → `jobs`); null for routes outside `/v1` or marked `operation: false`.
 */
function operationOf(route: string, config: FastifyContextConfig): string | null {
  let operation = operations.get(config);
  if (operation === undefined) {
    const configured = config.operation;
    if (!isProtectedPath(route) || configured === false) operation = null;
    else operation = configured ?? /^\/v1\/([A-Za-z0-9_-]+)/.exec(route)?.[1] ?? null;
    operations.set(config, operation);
  }
  return operation;
}
