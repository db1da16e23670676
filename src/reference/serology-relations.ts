/**
 * `wmda/rel_ser_ser.txt`: `Locus;Antigen;Splits;Associated`, lists `/`-separated. Since 3.64.0 the
 * associated list holds 4-digit codes (`B;62;;1501/1520/...`); 3.58.0 had short ones (`A;2;;203/210`).
 */
import { ReleaseFileError } from './errors.ts';
import type { SerologyRelationRow } from './tables.ts';
import { isBlank, isComment, quote, readPreamble, slashListReader, splitLines } from './text-lines.ts';

export interface SerologyRelationList {
  readonly version: string | null;
  readonly rows: SerologyRelationRow[];
}

export function parseSerologyRelations(text: string, fileName = 'wmda/rel_ser_ser.txt'): SerologyRelationList {
  const lines = splitLines(text);
  const { version, next } = readPreamble(lines, fileName);
  const slashList = slashListReader(fileName);
  const rows: SerologyRelationRow[] = [];
  for (let i = next; i < lines.length; i++) {
    const line = lines[i];
    if (isBlank(line) || isComment(line)) continue;
    const fields = line.split(';');
    if (fields.length !== 4) {
      throw new ReleaseFileError(fileName, i + 1, `expected 4 ";"-separated fields (locus;antigen;splits;associated), found ${fields.length} in ${quote(line)}`);
    }
    const [locus, antigen, splits, associated] = fields;
    if (locus === '' || antigen === '') throw new ReleaseFileError(fileName, i + 1, `empty locus or antigen in ${quote(line)}`);
    rows.push({
      locus,
      antigen,
      splits: slashList(splits, i, 'splits'),
      associated: slashList(associated, i, 'associated'),
    });
  }
  if (rows.length === 0) throw new ReleaseFileError(fileName, null, 'no serology rows');
  return { version, rows };
}
