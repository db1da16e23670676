/**
 * The bulk processor: a plain function of (engine, job spec, input) → result CSV. It knows no
 * queue, no Redis and no HTTP, so the BullMQ worker (src/jobs/worker.ts) and the embedded runner
 * (src/jobs/embedded-service.ts) run exactly the same code.
 *
 * Rows are read (csv-parse), transformed and written (csv-stringify) in synchronous batches, one
 * slice of the input each; between batches the event loop gets a turn, so a worker keeps renewing
 * its BullMQ lock while it chews through a large file.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { validationError } from '../errors.ts';
import type { Engine } from '../nomenclature/engine-types.ts';
import { CsvInput } from './csv-input.ts';
import { CsvSink } from './csv-output.ts';
import type { CsvTransform } from './layout.ts';
import { MatchTransform, planMatch, type MatchPlan } from './match-csv.ts';
import { NormalizeTransform, planNormalize, type NormalizePlan } from './normalize-csv.ts';
import type { BulkInput, JobSpec } from './types.ts';

export type JobPlan = { readonly kind: 'normalize'; readonly plan: NormalizePlan } | { readonly kind: 'match'; readonly plan: MatchPlan };

export interface BulkResult {
  /** The result CSV (UTF-8, LF line ends). Held in memory only, until delivered. */
  readonly csv: Buffer;
  /** Data rows read. */
  readonly rows: number;
  /** Rows whose `error` cell is filled. */
  readonly rowErrors: number;
}

/**
 * Checks a job against its CSV header (and recipient): the 422s of submit. The worker calls it
 * again on the input it reads, so an input that changed shape fails the job, not the process.
 */
export function planJob(spec: JobSpec, header: readonly string[], input: Pick<BulkInput, 'recipient'>): JobPlan {
  if (spec.kind === 'normalize') return { kind: 'normalize', plan: planNormalize(header, spec.columns) };
  if (spec.mode === 'search' && input.recipient === undefined) throw validationError('recipient: required for a donor search');
  return { kind: 'match', plan: planMatch(header, spec.mode, spec.framework, input.recipient) };
}

function transformFor(engine: Engine, job: JobPlan): CsvTransform {
  return job.kind === 'normalize' ? new NormalizeTransform(engine, job.plan) : new MatchTransform(engine, job.plan);
}

export async function processBulkJob(
  engine: Engine,
  spec: JobSpec,
  input: BulkInput,
  onProgress?: (rowsDone: number) => void,
): Promise<BulkResult> {
  const source = CsvInput.of(input.csv);
  const transform = transformFor(engine, planJob(spec, source.header, input));
  const sink = new CsvSink();
  transform.start(sink);
  let rows = 0;
  for (let batch = source.nextBatch(); batch !== null; batch = source.nextBatch()) {
    transform.rows(batch, sink);
    rows += batch.length;
    onProgress?.(rows);
    await nextTurn();
  }
  transform.end(sink);
  return { csv: sink.finish(), rows, rowErrors: transform.rowErrors };
}
