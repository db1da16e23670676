/** `Allelelist.txt`: `# version: IPD-IMGT/HLA x.y.z`, then `AlleleID,Allele` rows. */
import { ReleaseFileError } from './errors.ts';
import type { AlleleRow } from './tables.ts';
import { expectHeader, isBlank, quote, readPreamble, splitLines } from './text-lines.ts';

export interface AlleleList {
  /** Release named by the file's own `# version:` header. */
  readonly version: string;
  readonly rows: AlleleRow[];
}

const HLA_ID = /^HLA\d+$/;

export function parseAlleleList(text: string, fileName = 'Allelelist.txt'): AlleleList {
  const lines = splitLines(text);
  const { version, next } = readPreamble(lines, fileName);
  if (version === null) throw new ReleaseFileError(fileName, null, 'no "# version: IPD-IMGT/HLA x.y.z" header');
  expectHeader(lines, next, 'AlleleID,Allele', fileName);
  const rows: AlleleRow[] = [];
  for (let i = next + 1; i < lines.length; i++) {
    const line = lines[i];
    if (isBlank(line)) continue;
    const comma = line.indexOf(',');
    const id = comma < 0 ? '' : line.slice(0, comma);
    const name = comma < 0 ? '' : line.slice(comma + 1);
    if (!HLA_ID.test(id) || !name.includes('*') || name.includes(',')) {
      throw new ReleaseFileError(fileName, i + 1, `expected "HLA-ID,allele name", found ${quote(line)}`);
    }
    rows.push({ id, name });
  }
  if (rows.length === 0) throw new ReleaseFileError(fileName, null, 'no allele rows');
  return { version, rows };
}
