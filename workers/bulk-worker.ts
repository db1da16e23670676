/**
 * Bulk-jobs worker process (`npm run worker`): loads the pinned release, takes jobs from the
 * BullMQ queue at REDIS_URL, HLA_SERVICE_WORKER_CONCURRENCY at a time. Releases other keys are
 * pinned to are loaded on their first job. SIGTERM/SIGINT: stop taking jobs, finish the running
 * ones (result delivered), exit; a second signal exits at once (the jobs then run again on another
 * worker once their lock expires).
 */
import { createLogger, logReleaseLoaded } from '../src/api/logger.ts';
import { JobsConfigError, loadJobsConfig, startBulkWorker } from '../src/jobs/index.ts';
import { catalogFromEnv } from '../src/releases.ts';
import { closeOnSignals } from '../src/shutdown.ts';

function exitWith(message: string): never {
  process.stderr.write(`hla-verify worker: ${message}\n`);
  process.exit(2);
}

async function main(): Promise<void> {
  let config;
  try {
    config = loadJobsConfig();
  } catch (error) {
    if (error instanceof JobsConfigError) exitWith(error.message);
    throw error;
  }
  if (config.redisUrl === null) exitWith('REDIS_URL is required (the queue the API submits to)');
  if (config.webhookSecret === null) exitWith('HLA_SERVICE_WEBHOOK_SECRET is required (results are signed)');

  const logger = createLogger({ level: process.env.LOG_LEVEL?.trim() || 'info' }).child({ role: 'bulk-worker' });
  let catalog;
  try {
    catalog = await catalogFromEnv(process.env, { onLoaded: logReleaseLoaded(logger) });
  } catch (error) {
    logger.fatal({ reason: error instanceof Error ? error.message : String(error) }, 'start-up failed: release not loaded');
    process.exit(1);
  }

  const worker = startBulkWorker({ config, engineFor: (tag) => catalog.engineFor(tag), log: logger });
  await worker.worker.waitUntilReady();
  logger.info(
    { release: catalog.defaultEngine.release, concurrency: config.concurrency, pid: process.pid },
    'bulk worker ready',
  );

  closeOnSignals(logger, () => worker.close(), { what: 'finishing running jobs' });
}

void main();
