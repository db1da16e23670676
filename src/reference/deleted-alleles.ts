/**
 * `Deleted_alleles.txt`: two sections, each headed `AlleleID,Allele,Description` — deleted names,
 * then (after `# Alleles With Suffix Changes`) names whose expression suffix was added or removed.
 * Descriptions are free English and may contain commas: only the first two commas separate.
 */
import { ReleaseFileError } from './errors.ts';
import type { DeletedRow } from './tables.ts';
import { expectHeader, isBlank, isComment, quote, readPreamble, splitLines } from './text-lines.ts';

export interface DeletedAlleles {
  readonly version: string | null;
  readonly deleted: DeletedRow[];
  /** Old spellings from the suffix-change section (`DRB1*15:13` → `DRB1*15:13Q`). */
  readonly suffixChanges: DeletedRow[];
}

const HEADER = 'AlleleID,Allele,Description';
const SUFFIX_SECTION = /^#\s*Alleles With Suffix Changes\s*$/i;

export function parseDeletedAlleles(text: string, fileName = 'Deleted_alleles.txt'): DeletedAlleles {
  const lines = splitLines(text);
  const { version, next } = readPreamble(lines, fileName);
  expectHeader(lines, next, HEADER, fileName);
  const deleted: DeletedRow[] = [];
  const suffixChanges: DeletedRow[] = [];
  let section = deleted;
  let expectingHeader = false;
  for (let i = next + 1; i < lines.length; i++) {
    const line = lines[i];
    if (isBlank(line)) continue;
    if (isComment(line)) {
      if (SUFFIX_SECTION.test(line)) {
        if (section === suffixChanges) throw new ReleaseFileError(fileName, i + 1, 'second suffix-change section');
        section = suffixChanges;
        expectingHeader = true;
      }
      continue;
    }
    if (expectingHeader) {
      expectHeader(lines, i, HEADER, fileName);
      expectingHeader = false;
      continue;
    }
    const first = line.indexOf(',');
    const second = first < 0 ? -1 : line.indexOf(',', first + 1);
    const id = line.slice(0, first);
    const name = line.slice(first + 1, second);
    if (second < 0 || !id.startsWith('HLA') || !name.includes('*')) {
      throw new ReleaseFileError(fileName, i + 1, `expected "HLA-ID,allele name,description", found ${quote(line)}`);
    }
    section.push({ id, name, description: line.slice(second + 1).trim() });
  }
  if (expectingHeader) throw new ReleaseFileError(fileName, null, `suffix-change section without its ${JSON.stringify(HEADER)} header`);
  return { version, deleted, suffixChanges };
}
