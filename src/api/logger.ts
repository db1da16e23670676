/**
 * The service's pino logger. Nothing sent to the service may end up in a log line: no bodies, no
 * URLs (an allele name is part of the path), no query strings, no keys. Request lines are written
 * by the access-log hook (src/api/hooks.ts) with the route pattern only; the serializers and the
 * redaction below are the second line of defence should anything log a raw request.
 */
import pino, { type Logger } from 'pino';

export type { Logger };

export interface LoggerOptions {
  level: string;
  /** Where lines go; stdout by default. Tests pass a stream to read what was logged. */
  destination?: pino.DestinationStream;
}

export function createLogger({ level, destination }: LoggerOptions): Logger {
  return pino(
    {
      level,
      base: { service: 'hla-verify' },
      // pino's default epoch-milliseconds `time`: the cheapest timestamp, on every request line.
      redact: {
        paths: [
          'req.headers.authorization',
          'req.headers["x-api-key"]',
          'headers.authorization',
          'headers["x-api-key"]',
        ],
        censor: '[redacted]',
      },
      serializers: {
        req: (req: { method?: string; routeOptions?: { url?: string } }) => ({
          method: req.method,
          route: req.routeOptions?.url ?? '(unmatched)',
        }),
        res: (res: { statusCode?: number }) => ({ statusCode: res.statusCode }),
        err: errorWithoutMessage,
      },
    },
    destination,
  );
}

/**
 * An error's type and code locations. Its message is left out on purpose: a message thrown deep
 * in the engine could quote the name or text being processed.
 */
export function errorWithoutMessage(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { type: typeof error };
  const frames = (error.stack ?? '')
    .split('\n')
    .filter((line) => line.trimStart().startsWith('at '))
    .map((line) => line.trim());
  const code = (error as { code?: unknown }).code;
  return { type: error.name, ...(typeof code === 'string' ? { code } : {}), stack: frames };
}
