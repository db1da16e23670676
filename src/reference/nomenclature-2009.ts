/**
 * `Nomenclature_2009.txt`: the April 2010 conversion table, two fixed-width columns under the
 * header `Current Name  Name as of April 2010` and a `====` rule. `None` on the right marks a name
 * deleted before 2010 (its deletion record decides). The file has no `#` preamble.
 */
import { ReleaseFileError } from './errors.ts';
import type { ConversionRow } from './tables.ts';
import { isBlank, isComment, quote, readPreamble, splitLines } from './text-lines.ts';

const HEADER = /^Current Name\s+Name as of April 2010$/;
const RULE = /^=+\s+=+$/;
const WHITESPACE = /\s+/;

export function parseNomenclature2009(text: string, fileName = 'Nomenclature_2009.txt'): ConversionRow[] {
  const lines = splitLines(text);
  const { next } = readPreamble(lines, fileName);
  if (next >= lines.length || !HEADER.test(lines[next].trim())) {
    throw new ReleaseFileError(fileName, next + 1, `expected header "Current Name  Name as of April 2010", found ${quote(lines[next] ?? '')}`);
  }
  if (next + 1 >= lines.length || !RULE.test(lines[next + 1].trim())) {
    throw new ReleaseFileError(fileName, next + 2, `expected the "====" rule under the header, found ${quote(lines[next + 1] ?? '')}`);
  }
  const rows: ConversionRow[] = [];
  for (let i = next + 2; i < lines.length; i++) {
    const line = lines[i];
    if (isBlank(line) || isComment(line)) continue;
    // The columns are padded with spaces and names never contain any, so a split is exact.
    const cells = line.trim().split(WHITESPACE);
    if (cells.length !== 2 || !cells[0].includes('*') || (cells[1] !== 'None' && !cells[1].includes('*'))) {
      throw new ReleaseFileError(fileName, i + 1, `expected "legacy name  April 2010 name", found ${quote(line)}`);
    }
    rows.push({ legacy: cells[0], current: cells[1] === 'None' ? null : cells[1] });
  }
  if (rows.length === 0) throw new ReleaseFileError(fileName, null, 'no conversion rows');
  return rows;
}
