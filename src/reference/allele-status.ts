/**
 * `Allele_status.txt`: `Allele,Cells,Groups,Confirmed,Start,End,Partial,Type`. An allele is
 * confirmed when its `Confirmed` column reads exactly `Confirmed` (the other value is `Unconfirmed`).
 */
import { ReleaseFileError } from './errors.ts';
import type { AlleleStatusRow } from './tables.ts';
import { isBlank, quote, readPreamble, splitLines } from './text-lines.ts';

export interface AlleleStatusList {
  readonly version: string | null;
  readonly rows: AlleleStatusRow[];
}

const REQUIRED_HEADER = ['Allele', 'Cells', 'Groups', 'Confirmed'];

export function parseAlleleStatus(text: string, fileName = 'Allele_status.txt'): AlleleStatusList {
  const lines = splitLines(text);
  const { version, next } = readPreamble(lines, fileName);
  if (next >= lines.length) throw new ReleaseFileError(fileName, null, 'no header line');
  const header = lines[next].trim().split(',');
  if (REQUIRED_HEADER.some((name, k) => header[k] !== name)) {
    throw new ReleaseFileError(fileName, next + 1, `expected header starting "${REQUIRED_HEADER.join(',')}", found ${quote(lines[next])}`);
  }
  const width = header.length;
  const rows: AlleleStatusRow[] = [];
  for (let i = next + 1; i < lines.length; i++) {
    const line = lines[i];
    if (isBlank(line)) continue;
    // Only two of the eight fields are kept: scan for the commas instead of splitting the line.
    const first = line.indexOf(',');
    const second = line.indexOf(',', first + 1);
    const third = line.indexOf(',', second + 1);
    const fourth = line.indexOf(',', third + 1);
    let commas = first < 0 ? 0 : 1;
    for (let at = first; commas < width && at >= 0; ) {
      at = line.indexOf(',', at + 1);
      if (at >= 0) commas++;
    }
    const allele = line.slice(0, first);
    if (commas !== width - 1 || !allele.includes('*')) {
      throw new ReleaseFileError(fileName, i + 1, `expected ${width} ","-separated fields starting with an allele name, found ${quote(line)}`);
    }
    const confirmed = (fourth < 0 ? line.slice(third + 1) : line.slice(third + 1, fourth)) === 'Confirmed';
    rows.push({ allele, confirmed });
  }
  if (rows.length === 0) throw new ReleaseFileError(fileName, null, 'no allele rows');
  return { version, rows };
}
