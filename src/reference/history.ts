/**
 * `Allelelist_history.txt`: header `HLA_ID,3650,3640,...,1050` (release codes, newest first), then
 * one row per HLA ID with its name in each release; `NA` (or an empty cell) where the ID did not
 * exist. Current releases separate with commas; old ones (3.18.0) used tabs and CRLF: both are read.
 */
import { ReleaseFileError } from './errors.ts';
import type { HistoryRow, HistoryTable } from './tables.ts';
import { isBlank, isComment, quote, readPreamble, splitLines } from './text-lines.ts';

const RELEASE_CODE = /^\d{3,4}$/;

/**
 * Release code → version string: 4 digits read `d.dd.d` (`3650` → `3.65.0`, `2252` → `2.25.2`),
 * 3 digits read `d.dd` with patch 0 (`327` → `3.27.0`); a zero minor is written `0` as the
 * releases themselves are named (`3000` → `3.0.0`). Returns null for anything else.
 */
export function releaseCodeToVersion(code: string): string | null {
  if (!RELEASE_CODE.test(code)) return null;
  const patch = code.length === 4 ? code[3] : '0';
  const minor = code.slice(1, 3);
  return `${code[0]}.${minor === '00' ? '0' : minor}.${patch}`;
}

export interface History extends HistoryTable {
  readonly version: string | null;
}

export function parseHistory(text: string, fileName = 'Allelelist_history.txt'): History {
  const lines = splitLines(text);
  const { version, next } = readPreamble(lines, fileName);
  if (next >= lines.length) throw new ReleaseFileError(fileName, null, 'no header line');
  const headerLine = lines[next].trim();
  const separator = headerLine.includes('\t') ? '\t' : ',';
  const header = headerLine.split(separator);
  if (header[0] !== 'HLA_ID' || header.length < 2) {
    throw new ReleaseFileError(fileName, next + 1, `expected header "HLA_ID,<release codes>", found ${quote(headerLine)}`);
  }
  const releases = header.slice(1).map((code) => {
    const release = releaseCodeToVersion(code.trim());
    if (release === null) throw new ReleaseFileError(fileName, next + 1, `unreadable release code ${quote(code)} in the header`);
    return release;
  });
  const width = header.length;
  const rows: HistoryRow[] = [];
  for (let i = next + 1; i < lines.length; i++) {
    const line = lines[i];
    if (isBlank(line) || isComment(line)) continue;
    const cells = line.split(separator);
    if (cells.length !== width || cells[0] === '') {
      throw new ReleaseFileError(fileName, i + 1, `expected ${width} fields (HLA ID and one name per release), found ${cells.length} in ${quote(line)}`);
    }
    const names = new Array<string | null>(width - 1);
    let previous: string | null = null;
    for (let c = 1; c < width; c++) {
      const cell = cells[c].trim();
      // Neighbouring releases mostly agree: share one string instead of keeping ~100 copies per row.
      const name: string | null = cell === 'NA' || cell === '' ? null : cell === previous ? previous : cell;
      names[c - 1] = name;
      previous = name;
    }
    rows.push({ id: cells[0].trim(), names });
  }
  return { version, releases, rows };
}
