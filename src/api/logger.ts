/**
 * The service's pino logger. Nothing sent to the service may end up in a log line: no bodies, no
 * URLs (an allele name is part of the path), no query strings, no keys. Request lines are written
 * by the access-log hook (src/api/hooks.ts) with the route pattern only; the serializers and the
 * redaction below are the second line of defence should anything log a raw request.
 */
import pino, { type Logger } from 'pino';
import type { LoadReport } from '../reference/load-release.ts';

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

/** Start-up log of one loaded release: where it came from, how long it took, what is missing. */
export function logReleaseLoaded(logger: Logger): (report: LoadReport) => void {
  return (report) => {
    logger.info(
      {
        tag: report.tag,
        release: report.version,
        mirror: report.mirrorDir,
        missing_optional_files: report.missingOptional,
        warnings: report.warnings,
        ms: Math.round(report.timings.totalMs),
      },
      'release loaded and verified',
    );
    if (report.missingOptional.length > 0) {
      logger.warn({ tag: report.tag, files: report.missingOptional }, 'optional release files missing: the facts they feed are unknown');
    }
  };
}
