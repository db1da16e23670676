/**
 * Writing the result CSV with csv-stringify and its default rules: `,` separator, a field quoted
 * only when it holds `"`, `,`, CR or LF, `""` inside quotes; LF line ends. The result is built in
 * memory — never on disk, never in Redis — in chunks of about 64 KB.
 *
 * A result line keeps the row's input cells and appends what the job adds, so transforms assemble
 * it from record texts joined by `,`: csv-stringify's text of the input cells, then of the added
 * cells (a normalize job reuses the text of the cells of a name it has seen). A batch of records
 * is stringified in one call — one call per record would cost seconds over a million rows in
 * csv-stringify's option handling — with a record separator that cannot occur in the text (NUL,
 * refused in inputs), so that the batch splits back into its records.
 */
import { stringify } from 'csv-stringify/sync';

const SEPARATOR = '\u0000';

/** csv-stringify's text of each record, without line end. */
export function recordTexts(records: readonly (readonly string[])[]): string[] {
  if (records.length === 0) return [];
  // quote_record_delimiter: csv-stringify stops quoting CR and LF when record_delimiter is set.
  const options = { record_delimiter: SEPARATOR, quote_record_delimiter: true, eof: false };
  const texts = stringify(records as string[][], options).split(SEPARATOR);
  if (texts.length !== records.length) throw new Error('csv-stringify: a cell holds the record separator');
  return texts;
}

/** csv-stringify's text of one record, without line end. */
export function recordText(fields: readonly string[]): string {
  return recordTexts([fields])[0];
}

/** Text kept as a string before it becomes a Buffer chunk: short-lived strings are cheap to collect. */
const CHUNK_CHARS = 1 << 16;

export class CsvSink {
  private readonly chunks: Buffer[] = [];
  private pending = '';
  private bytes = 0;

  /** Appends one record; `line` is CSV text (see `recordTexts`), without its line end. */
  writeLine(line: string): void {
    this.pending += line + '\n';
    if (this.pending.length >= CHUNK_CHARS) this.flush();
  }

  /** The whole CSV. */
  finish(): Buffer {
    this.flush();
    return this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks, this.bytes);
  }

  private flush(): void {
    if (this.pending === '') return;
    const chunk = Buffer.from(this.pending, 'utf8');
    this.chunks.push(chunk);
    this.bytes += chunk.length;
    this.pending = '';
  }
}
