/**
 * Bulk normalize (docs/bulk-jobs.md "Normalize CSV"): every input row and column is kept, and
 * each typing column `<col>` gains four columns at the end of the row, in request order —
 * `<col>_current_name`, `<col>_allele_2field`, `<col>_g_group`, `<col>_flags` (flags joined by
 * `|`) — then one `error` column, empty for a good row. An empty cell gives four empty cells.
 */
import { validationError } from '../errors.ts';
import { MAX_NAME_LENGTH } from '../matching/index.ts';
import type { Engine } from '../nomenclature/engine-types.ts';
import type { CsvRow } from './csv-input.ts';
import { recordText, recordTexts, type CsvSink } from './csv-output.ts';
import { assertNoClash, columnLabel, findColumn, keptCells, shapeProblem, type CsvTransform } from './layout.ts';

export const NORMALIZE_SUFFIXES = ['_current_name', '_allele_2field', '_g_group', '_flags'] as const;
export const FLAG_SEPARATOR = '|';
export const MAX_TYPING_COLUMNS = 32;

export interface NormalizePlan {
  readonly header: readonly string[];
  readonly columns: readonly string[];
  /** Position in the header of each typing column. */
  readonly positions: readonly number[];
  readonly outputHeader: readonly string[];
}

/** Checks the requested columns against the header; 422 naming the column when one is wrong. */
export function planNormalize(header: readonly string[], columns: readonly string[]): NormalizePlan {
  if (columns.length === 0) throw validationError('column: name at least one typing column (?column=<header name>)');
  if (columns.length > MAX_TYPING_COLUMNS) throw validationError(`column: at most ${MAX_TYPING_COLUMNS} typing columns`);
  const seen = new Set<string>();
  const positions = columns.map((column) => {
    if (seen.has(column)) throw validationError(`column: ${columnLabel(column)} is named twice`);
    seen.add(column);
    return findColumn(header, column, 'column');
  });
  const added = columns.flatMap((column) => NORMALIZE_SUFFIXES.map((suffix) => column + suffix));
  const outputHeader = [...header, ...added, 'error'];
  assertNoClash(header, [...added, 'error']);
  return { header, columns, positions, outputHeader };
}

/** The four cells of a typing column, as text to append to a line (with the separating comma). */
const EMPTY_RESULT = ',' + recordText(['', '', '', '']);

export class NormalizeTransform implements CsvTransform {
  rowErrors = 0;
  /** Result cells as text per reported string; the engine memoizes too, this skips stringifying. */
  private readonly cells = new Map<string, string>();
  private readonly width: number;
  private readonly blank: string;

  constructor(
    private readonly engine: Engine,
    private readonly plan: NormalizePlan,
  ) {
    this.width = plan.header.length;
    this.blank = EMPTY_RESULT.repeat(plan.columns.length);
  }

  start(sink: CsvSink): void {
    sink.writeLine(recordText(this.plan.outputHeader));
  }

  rows(batch: readonly CsvRow[], sink: CsvSink): void {
    const inputs = recordTexts(batch.map((row) => keptCells(row, this.width)));
    const { positions, columns } = this.plan;
    for (let i = 0; i < batch.length; i++) {
      const row = batch[i];
      let problem = shapeProblem(row, this.width);
      let results = this.blank;
      if (problem === null) {
        results = '';
        for (let k = 0; k < positions.length; k++) {
          const reported = row.fields[positions[k]];
          let cells = this.cells.get(reported);
          if (cells === undefined) {
            if (reported.length > MAX_NAME_LENGTH) {
              problem ??= `${columnLabel(columns[k])} is longer than ${MAX_NAME_LENGTH} characters`;
              cells = EMPTY_RESULT;
            } else {
              cells = this.resultCells(reported);
            }
          }
          results += cells;
        }
      }
      if (problem === null) {
        sink.writeLine(inputs[i] + results + ','); // and an empty error cell
      } else {
        this.rowErrors++;
        sink.writeLine(inputs[i] + results + ',' + recordText([`row ${row.number}: ${problem}`]));
      }
    }
  }

  end(): void {}

  private resultCells(reported: string): string {
    let cells: string;
    if (reported.trim() === '') {
      cells = EMPTY_RESULT;
    } else {
      const r = this.engine.normalizeOne(reported);
      cells = ',' + recordText([r.current_name, r.allele_2field, r.g_group, r.flags.join(FLAG_SEPARATOR)]);
    }
    // Bounded: a file of unique strings must not grow the cache without limit.
    if (this.cells.size >= 200_000) this.cells.clear();
    this.cells.set(reported, cells);
    return cells;
  }
}
