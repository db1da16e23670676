/**
 * `wmda/rel_dna_ser.txt`: `LOCUS*;allele;unambiguous;possible;assumed;expert` — 6 fields up to
 * 3.63.0, 7 since 3.64.0. Every column after the allele is kept, in file order, as a list of raw
 * codes (`/`-separated; an empty column is an empty list). All rows of one file have the same width.
 */
import { ReleaseFileError } from './errors.ts';
import type { DnaSerologyRow } from './tables.ts';
import { isBlank, isComment, quote, readPreamble, slashListReader, splitLines } from './text-lines.ts';

export interface DnaSerologyList {
  readonly version: string | null;
  /** Serology columns per row (4 in the 6-field layout, 5 in 3.65.0). */
  readonly columnCount: number;
  readonly rows: DnaSerologyRow[];
}

const MIN_FIELDS = 6;
const COLUMN_NAMES = ['unambiguous', 'possible', 'assumed', 'expert'];

export function parseDnaSerology(text: string, fileName = 'wmda/rel_dna_ser.txt'): DnaSerologyList {
  const lines = splitLines(text);
  const { version, next } = readPreamble(lines, fileName);
  const slashList = slashListReader(fileName);
  const rows: DnaSerologyRow[] = [];
  let width = 0;
  for (let i = next; i < lines.length; i++) {
    const line = lines[i];
    if (isBlank(line) || isComment(line)) continue;
    const fields = line.split(';');
    if (width === 0) {
      if (fields.length < MIN_FIELDS) {
        throw new ReleaseFileError(fileName, i + 1, `expected at least ${MIN_FIELDS} ";"-separated fields, found ${fields.length} in ${quote(line)}`);
      }
      width = fields.length;
    } else if (fields.length !== width) {
      throw new ReleaseFileError(fileName, i + 1, `expected ${width} ";"-separated fields like the first row, found ${fields.length} in ${quote(line)}`);
    }
    const prefix = fields[0];
    if (prefix.length < 2 || !prefix.endsWith('*') || fields[1] === '') {
      throw new ReleaseFileError(fileName, i + 1, `expected "LOCUS*;allele;...", found ${quote(line)}`);
    }
    const columns = new Array<readonly string[]>(width - 2);
    for (let c = 2; c < width; c++) columns[c - 2] = slashList(fields[c], i, COLUMN_NAMES[c - 2] ?? `serology column ${c - 1}`);
    rows.push({ allele: prefix + fields[1], columns });
  }
  if (rows.length === 0) throw new ReleaseFileError(fileName, null, 'no allele rows');
  return { version, columnCount: width - 2, rows };
}
