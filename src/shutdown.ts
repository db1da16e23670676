/**
 * Graceful stop of a long-running process (API server, bulk worker): on SIGTERM or SIGINT, close
 * (finish in-flight work) and exit; a second signal, or a close that outlasts the grace period,
 * exits at once.
 */
import type { Logger } from './api/logger.ts';

export function closeOnSignals(
  logger: Logger,
  close: () => Promise<unknown>,
  options: { what: string; graceMs?: number },
): void {
  let closing = false;
  const shutdown = (signal: NodeJS.Signals): void => {
    if (closing) {
      logger.warn({ signal }, 'second signal: exiting now');
      process.exit(1);
    }
    closing = true;
    logger.info({ signal }, `stopping: ${options.what}`);
    if (options.graceMs !== undefined) {
      setTimeout(() => {
        logger.error('stopping took too long: exiting');
        process.exit(1);
      }, options.graceMs).unref();
    }
    close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);
}
