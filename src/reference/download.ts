/**
 * Downloading release files and keeping them in the cache directory. Nothing here knows file
 * formats or checksums: the loader verifies every byte before it is cached or parsed.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { ReleaseLoadError } from './errors.ts';

export interface DownloadPolicy {
  readonly timeoutMs: number;
  readonly retries: number;
  readonly retryDelayMs: number;
}

export interface Download {
  /** Null when the server says the file does not exist (404): not retried. */
  readonly body: Buffer | null;
  readonly attempts: number;
}

/**
 * GET with a per-attempt timeout (covering the body), retried with exponential backoff on network
 * errors, timeouts, 5xx and 429. Other HTTP errors fail at once.
 */
export async function download(url: string, file: string, policy: DownloadPolicy): Promise<Download> {
  let lastFailure = '';
  const attempts = Math.max(0, Math.floor(policy.retries)) + 1;
  for (let attempt = 1; attempt <= attempts; attempt++) {
    if (attempt > 1) await sleep(policy.retryDelayMs * 2 ** (attempt - 2));
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(policy.timeoutMs), redirect: 'follow' });
      if (response.status === 404) {
        await response.body?.cancel();
        return { body: null, attempts: attempt };
      }
      if (response.ok) return { body: Buffer.from(await response.arrayBuffer()), attempts: attempt };
      await response.body?.cancel();
      lastFailure = `HTTP ${response.status}`;
      if (response.status !== 429 && response.status < 500) break;
    } catch (error) {
      lastFailure = describeFetchError(error, policy.timeoutMs);
    }
  }
  throw new ReleaseLoadError('fetch_failed', `could not download ${file} from ${url}: ${lastFailure} (after ${attempts} attempt${attempts === 1 ? '' : 's'})`, file);
}

function describeFetchError(error: unknown, timeoutMs: number): string {
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) return `timed out after ${timeoutMs} ms`;
  const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return `${error instanceof Error ? error.message : String(error)}${cause}`;
}

/** Writes through a temporary file in the same directory and a rename, so readers never see half a file. */
export async function writeAtomically(target: string, content: Buffer): Promise<void> {
  await mkdir(path.dirname(target), { recursive: true });
  const temporary = `${target}.${process.pid}.${randomUUID()}.tmp`;
  try {
    await writeFile(temporary, content);
    await rename(temporary, target);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}
