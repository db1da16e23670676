/**
 * One error handler for the whole API: every failure becomes `{ "detail": string }` with its
 * status. `RequestError`s carry their own status and detail; Fastify's own errors (body parsing,
 * content type, URL) get fixed wording here, because their messages may quote what was sent;
 * anything else is a 500 that says nothing about internals.
 */
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { RequestError } from '../errors.ts';

export const INTERNAL_ERROR_DETAIL = 'Internal error; nothing was stored.';

export interface ErrorResponse {
  readonly status: number;
  readonly detail: string;
}

/** Fixed wording for the errors Fastify raises before a handler runs. */
function fastifyErrorDetail(code: string, bodyLimit: number): ErrorResponse | null {
  switch (code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      // Also raised for keys that could poison prototypes (`__proto__`, `constructor.prototype`).
      return { status: 400, detail: 'Body is not valid JSON (keys __proto__ and constructor.prototype are refused)' };
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return { status: 400, detail: 'Body is empty; send a JSON object' };
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return { status: 400, detail: 'Content-Length does not match the body' };
    case 'FST_ERR_BAD_URL':
      return { status: 400, detail: 'Malformed URL' };
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return { status: 414, detail: 'URL path parameter too long' };
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return { status: 413, detail: `Body is larger than ${bodyLimit} bytes` };
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return { status: 415, detail: 'Content-Type must be application/json' };
    default:
      return null;
  }
}

export function toErrorResponse(error: unknown, bodyLimit: number): ErrorResponse {
  if (error instanceof RequestError) return { status: error.status, detail: error.detail };
  const fastifyError = error as Partial<FastifyError> | null;
  if (typeof fastifyError?.code === 'string') {
    const known = fastifyErrorDetail(fastifyError.code, bodyLimit);
    if (known) return known;
  }
  if (fastifyError?.validation) {
    return { status: 422, detail: `${fastifyError.validationContext ?? 'request'} is not valid` };
  }
  const status = fastifyError?.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    // A client error raised by a plugin: its message may quote the request, so use the status phrase.
    return { status, detail: STATUS_CODES[status] ?? 'Bad request' };
  }
  return { status: 500, detail: INTERNAL_ERROR_DETAIL };
}

/**
 * Errors the router raises before any hook runs (a malformed URL, an over-long parameter): same
 * `{ detail }` body. Passed to Fastify as `frameworkErrors`.
 */
export function frameworkErrorReply(bodyLimit: number) {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply): void => {
    const { status, detail } = toErrorResponse(error, bodyLimit);
    request.log.info({ method: request.method, route: '(unmatched)', status }, 'request');
    reply.code(status).type('application/json; charset=utf-8').send({ detail });
  };
}

/**
 * Requests Node's HTTP parser refuses (garbage, oversized headers, timeouts) never reach Fastify's
 * routing: answer them in the same `{ detail }` shape. Passed to Fastify as `clientErrorHandler`.
 */
export function clientErrorReply(error: Error & { code?: string }, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, detail] =
    error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? [408, 'Request timed out']
      : error.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'Request headers too large']
        : [400, 'Malformed HTTP request'];
  const body = JSON.stringify({ detail });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `Content-Type: application/json; charset=utf-8\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}

export function registerErrorHandling(app: FastifyInstance, bodyLimit: number): void {
  app.setErrorHandler((error: unknown, request: FastifyRequest, reply: FastifyReply) => {
    const { status, detail } = toErrorResponse(error, bodyLimit);
    if (error instanceof RequestError) {
      if (status >= 500) request.log.warn({ code: error.code, status }, 'service unavailable');
    } else if (status >= 500) {
      request.log.error({ err: error }, 'internal error');
    }
    reply.code(status).type('application/json; charset=utf-8').send({ detail });
  });

  app.setNotFoundHandler((request, reply) => {
    reply.code(404).send({ detail: 'Unknown route; the API is described at /docs' });
  });
}

export const ALL_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'] as const;

/**
 * 405 with `Allow` for a known path asked with another method: Fastify alone would answer 404.
 * Every route added so far is collected through onRoute; `addMethodNotAllowedRoutes` then adds,
 * for each path, one hidden route for the remaining methods. Its onRequest hook answers before
 * the body is read, after the app's own onRequest hooks (so 401/429 still come first on /v1).
 */
export function collectRouteMethods(app: FastifyInstance): () => void {
  const methodsByUrl = new Map<string, Set<string>>();
  app.addHook('onRoute', (route) => {
    // The Swagger UI plugin's own paths (/docs…) are left to it.
    if (route.config?.methodNotAllowed || route.url.startsWith('/docs')) return;
    let methods = methodsByUrl.get(route.url);
    if (methods === undefined) {
      methods = new Set();
      methodsByUrl.set(route.url, methods);
    }
    for (const method of [route.method].flat()) methods.add(method.toUpperCase());
    if (methods.has('GET')) methods.add('HEAD'); // Fastify answers HEAD for every GET route
  });

  return function addMethodNotAllowedRoutes(): void {
    for (const [url, methods] of methodsByUrl) {
      const others = ALL_METHODS.filter((method) => !methods.has(method));
      if (others.length === 0) continue;
      const allow = ALL_METHODS.filter((method) => methods.has(method)).join(', ');
      app.route({
        method: others,
        url,
        schema: { hide: true },
        config: { methodNotAllowed: true, operation: false },
        onRequest: async (_request, reply) => {
          reply.header('allow', allow);
          throw new RequestError('method_not_allowed', `Method not allowed on this path; allowed: ${allow}`);
        },
        handler: async () => undefined,
      });
    }
  };
}
