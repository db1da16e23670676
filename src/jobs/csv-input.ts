/**
 * Reading a bulk input with csv-parse (docs/bulk-jobs.md "CSV rules"): UTF-8 (a BOM is dropped),
 * `,` separator, LF or CRLF line ends, `"` quoting with `""` inside quoted fields, line breaks
 * inside quoted fields. Blank lines are not rows; the first record is the header.
 *
 * The input is already in memory (at most `HLA_SERVICE_JOB_MAX_BYTES`). It is parsed with
 * csv-parse's sync API one slice of whole lines (about 64 KB) at a time, so only one slice of
 * records exists at once, and each slice is one batch for the processor.
 *
 * One malformed record costs one row, never the rows after it. csv-parse stops at the first error
 * of a slice; its `skip_records_with_error` cannot be used to go on, because after a quote error
 * it stays inside the quoted field and swallows the rows that follow into the skipped record, and
 * `relax_quotes` would merge them into the bad row without any error at all. So on an error the
 * records before it are kept, the bad record becomes one `malformed` row, and parsing starts
 * again on the line after the one where that record began (so the lines a bad quote ran over are
 * read as the rows they are).
 *
 * A slice can also end inside a quoted field that legitimately spans lines: csv-parse then says
 * the quote is not closed. That record is read again with a slice twice as long, until it closes
 * or the input ends (then it really is not closed).
 */
import { isUtf8 } from 'node:buffer';
import { CsvError, parse, type Options } from 'csv-parse/sync';
import { validationError } from '../errors.ts';

export interface CsvRow {
  /** 1-based number of the data row (the header is row 0; blank lines are not counted). */
  readonly number: number;
  /** The fields as read; empty when the record is malformed. */
  readonly fields: readonly string[];
  /** Why the record could not be read (no content, see `reasonOf`); null for a good record. */
  readonly malformed: string | null;
}

/** Bytes of input per parse call, and so per batch (rounded up to a line end). */
export const SLICE_BYTES = 64 * 1024;
const HEADER_SCAN_BYTES = 1 << 20;
const LF = 0x0a;
const CR = 0x0d;

/**
 * Arrays of strings (no `columns`, no `cast`: the header is mapped once by the plan); the column
 * count is checked per row by the transforms, so a short or long row is a row error, not a parse
 * error. Both line ends are listed so a file may mix them (csv-parse would otherwise keep the one
 * of the first line). No `relax_quotes` (see above): a quote inside an unquoted field, which
 * RFC 4180 does not allow, makes its record malformed rather than risk merging rows.
 */
const OPTIONS: Options = {
  delimiter: ',',
  quote: '"',
  escape: '"',
  record_delimiter: ['\r\n', '\n'],
  relax_column_count: true,
  relax_quotes: false,
  skip_empty_lines: true,
  cast: false,
};

/** Why a record is malformed, in words that name no content (csv-parse's messages quote cells). */
function reasonOf(error: CsvError): string {
  switch (error.code) {
    case 'CSV_QUOTE_NOT_CLOSED':
      return 'a quoted field is not closed';
    case 'CSV_INVALID_CLOSING_QUOTE':
      return 'text follows a closing quote';
    case 'INVALID_OPENING_QUOTE':
      return 'a quote inside an unquoted field';
    default:
      return 'the record cannot be read';
  }
}

interface Failure {
  readonly error: CsvError;
  /** Offset in the input where the bad record begins. */
  readonly start: number;
}

export class CsvInput {
  readonly header: readonly string[];
  /** Offset of the next unread byte: always the start of a line. */
  private pos: number;
  private rowNumber = 0;

  private constructor(
    private readonly csv: Buffer,
    private readonly end: number,
    private readonly sliceBytes: number,
  ) {
    const first: { fields?: string[]; end: number } = { end: 0 };
    try {
      parse(csv.subarray(0, end), {
        ...OPTIONS,
        bom: true,
        to: 1,
        on_record: (fields: string[], context) => {
          first.fields = fields;
          first.end = context.bytes;
          return null;
        },
      });
    } catch (error) {
      if (error instanceof CsvError) throw validationError(`CSV: the header row is not valid CSV (${reasonOf(error)})`);
      throw error;
    }
    if (first.fields === undefined) throw validationError('CSV: the file has no header row');
    this.header = first.fields;
    this.pos = first.end;
  }

  /**
   * Throws a 422 `RequestError` when the buffer is not a UTF-8 CSV with a readable header.
   * `sliceBytes` is for tests, which use tiny slices to cut records everywhere.
   */
  static of(csv: Buffer, sliceBytes = SLICE_BYTES): CsvInput {
    assertCsvText(csv);
    return new CsvInput(csv, csv.length, sliceBytes);
  }

  /** The header row alone, for the checks at submit: reads only the start of a large file. */
  static headerOf(csv: Buffer): readonly string[] {
    assertCsvText(csv);
    let cut = Math.min(csv.length, HEADER_SCAN_BYTES);
    if (cut < csv.length) {
      const lf = csv.lastIndexOf(LF, cut - 1);
      if (lf === -1) throw validationError(`CSV: the header row is longer than ${HEADER_SCAN_BYTES} bytes`);
      cut = lf + 1;
    }
    return new CsvInput(csv, cut, SLICE_BYTES).header;
  }

  /**
   * The rows of the next slice, bad records included (none when it held only blank lines); null
   * once the input is read.
   */
  nextBatch(): CsvRow[] | null {
    if (this.pos >= this.end) return null;
    const rows: CsvRow[] = [];
    const sliceEnd = this.lineEndAfter(this.pos + this.sliceBytes);
    let stop = sliceEnd;
    while (this.pos < stop) {
      const failure = this.parseSlice(this.pos, stop, rows);
      if (failure === null) {
        this.pos = stop;
        break;
      }
      if (failure.error.code === 'CSV_QUOTE_NOT_CLOSED' && stop < this.end) {
        // Perhaps only cut by the slice: that record again from its start, with a longer slice.
        stop = this.lineEndAfter(failure.start + Math.max(this.sliceBytes, 2 * (stop - failure.start)));
        this.pos = failure.start;
        continue;
      }
      const next = this.lineEndAfter(failure.start);
      // A closing quote followed by text is often a quote left open that ran on to a later quote:
      // the reason is that of the record's first line read alone, as recovery sees the record.
      let error = failure.error;
      if (error.code === 'CSV_INVALID_CLOSING_QUOTE') error = this.errorOfLine(failure.start, next) ?? error;
      rows.push({ number: ++this.rowNumber, fields: [], malformed: reasonOf(error) });
      this.pos = next;
      stop = sliceEnd; // the rest of the slice, not of a longer one
    }
    return rows;
  }

  /** Appends the records of `[start, stop)` to `rows`, up to the first bad one if any. */
  private parseSlice(start: number, stop: number, rows: CsvRow[]): Failure | null {
    const slice = this.csv.subarray(start, stop);
    let records: string[][];
    try {
      records = parse(slice, OPTIONS);
    } catch (error) {
      if (!(error instanceof CsvError)) throw error;
      return this.recover(slice, start, error, rows);
    }
    for (const fields of records) rows.push({ number: ++this.rowNumber, fields, malformed: null });
    return null;
  }

  /**
   * After an error: the good records before it (csv-parse's sync API throws them away), and where
   * the bad record begins. Reads those records again noting where each ends — slower than the
   * plain read, so only here — and stops before the bad one.
   */
  private recover(slice: Buffer, start: number, error: CsvError, rows: CsvRow[]): Failure {
    const good = typeof error.records === 'number' ? error.records : 0;
    let goodEnd = 0;
    if (good > 0) {
      parse(slice, {
        ...OPTIONS,
        to: good,
        on_record: (fields: string[], context) => {
          rows.push({ number: ++this.rowNumber, fields, malformed: null });
          goodEnd = context.bytes;
          return null;
        },
      });
    }
    return { error, start: start + skipBlankLines(slice, goodEnd) };
  }

  /** The error of the line `[start, end)` read alone, if any. */
  private errorOfLine(start: number, end: number): CsvError | null {
    try {
      parse(this.csv.subarray(start, end), OPTIONS);
      return null;
    } catch (error) {
      if (error instanceof CsvError) return error;
      throw error;
    }
  }

  /** Offset just past the line end at or after `at` (or the end of the input). */
  private lineEndAfter(at: number): number {
    if (at >= this.end) return this.end;
    const lf = this.csv.indexOf(LF, at);
    return lf === -1 ? this.end : Math.min(lf + 1, this.end);
  }
}

/** Where the next record begins: after the blank lines at `at`, which csv-parse skips. */
function skipBlankLines(slice: Buffer, at: number): number {
  let p = at;
  for (;;) {
    if (slice[p] === LF) p += 1;
    else if (slice[p] === CR && slice[p + 1] === LF) p += 2;
    else return p;
  }
}

/** UTF-8 text without NUL bytes: what a CSV file is, as opposed to a spreadsheet or an image. */
export function assertCsvText(csv: Buffer): void {
  if (csv.length === 0) throw validationError('CSV: the file is empty');
  if (csv.indexOf(0) !== -1 || !isUtf8(csv)) {
    throw validationError('CSV: the file is not UTF-8 text (a spreadsheet or binary file?); export it as CSV, UTF-8');
  }
}

/**
 * Data rows in a CSV, counted as non-blank lines after the first: exact unless quoted fields
 * hold line breaks. Used for the progress total before the job runs.
 */
export function estimateRows(csv: Buffer): number {
  let lines = 0;
  let start = 0;
  for (;;) {
    const lf = csv.indexOf(LF, start);
    const end = lf === -1 ? csv.length : lf;
    const width = end - start - (end > start && csv[end - 1] === CR ? 1 : 0);
    if (width > 0) lines++;
    if (lf === -1) break;
    start = lf + 1;
  }
  return Math.max(0, lines - 1);
}
