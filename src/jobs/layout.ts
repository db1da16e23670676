/**
 * What every bulk CSV transform shares: the batch interface the processor drives, what a row keeps
 * of its input, and the header checks made at submit (so a wrong column is a 422 then, not a
 * failed job later). Details name a column the caller asked for, never the file's other header
 * names or its rows.
 */
import { validationError } from '../errors.ts';
import type { CsvRow } from './csv-input.ts';
import type { CsvSink } from './csv-output.ts';

/** One output CSV from the input rows, written to `sink`. Synchronous: the processor batches. */
export interface CsvTransform {
  /** Rows that got an `error` cell so far. */
  readonly rowErrors: number;
  start(sink: CsvSink): void;
  /** The next rows of the input, in order (one slice of it, see csv-input.ts). */
  rows(batch: readonly CsvRow[], sink: CsvSink): void;
  end(sink: CsvSink): void;
}

/**
 * The input cells a result row keeps, as many as the header has: all of a good row; a row of the
 * wrong width padded with empty cells or cut; none (all empty) of a malformed record.
 */
export function keptCells(row: CsvRow, width: number): readonly string[] {
  const { fields } = row;
  if (row.malformed !== null) return new Array<string>(width).fill('');
  if (fields.length === width) return fields;
  if (fields.length > width) return fields.slice(0, width);
  return [...fields, ...new Array<string>(width - fields.length).fill('')];
}

/** Why a row is not processed at all (its `error` cell), or null. */
export function shapeProblem(row: CsvRow, width: number): string | null {
  if (row.malformed !== null) return `malformed CSV record (${row.malformed})`;
  if (row.fields.length !== width) return `${row.fields.length} fields where the header has ${width}`;
  return null;
}

const SHOWABLE = /^[A-Za-z0-9_ .*:()/+-]{1,64}$/;

/** A column name as a detail may show it: quoted when it looks like a name, else generic. */
export function columnLabel(name: string): string {
  return SHOWABLE.test(name) ? `'${name}'` : 'a requested column';
}

/** Header names are compared with surrounding spaces trimmed, case-sensitively. */
export function findColumn(header: readonly string[], name: string, field: string): number {
  const wanted = name.trim();
  let found = -1;
  let count = 0;
  for (let i = 0; i < header.length; i++) {
    if (header[i].trim() === wanted) {
      if (found < 0) found = i;
      count++;
    }
  }
  if (count === 0) throw validationError(`${field}: ${columnLabel(name)} is not a column of the CSV header`);
  if (count > 1) throw validationError(`${field}: ${columnLabel(name)} appears ${count} times in the CSV header`);
  return found;
}

/** The columns a job adds must not already be in the input: the result would be ambiguous. */
export function assertNoClash(header: readonly string[], added: readonly string[]): void {
  const present = new Set(header.map((name) => name.trim()));
  for (const name of added) {
    if (present.has(name)) {
      throw validationError(
        `CSV: the header already has a column ${columnLabel(name)}, which the result adds; rename or drop it`,
      );
    }
  }
}
