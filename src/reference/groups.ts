/**
 * `wmda/hla_nom_g.txt` and `wmda/hla_nom_p.txt` (same layout): `LOCUS*;member/member/...;GROUP`.
 * Members and group are written without the locus; the tables carry full names
 * (`A*;01:01:01:02N/...;01:01:01G` → member `A*01:01:01:02N`, group `A*01:01:01G`).
 * An empty group field means the allele is in no group.
 */
import { ReleaseFileError } from './errors.ts';
import type { GroupRow } from './tables.ts';
import { isBlank, isComment, quote, readPreamble, splitLines } from './text-lines.ts';

export interface GroupList {
  readonly version: string | null;
  readonly rows: GroupRow[];
}

export function parseGroups(text: string, fileName: string): GroupList {
  const lines = splitLines(text);
  const { version, next } = readPreamble(lines, fileName);
  const rows: GroupRow[] = [];
  for (let i = next; i < lines.length; i++) {
    const line = lines[i];
    if (isBlank(line) || isComment(line)) continue;
    const fields = line.split(';');
    if (fields.length !== 3) {
      throw new ReleaseFileError(fileName, i + 1, `expected 3 ";"-separated fields (LOCUS*;members;group), found ${fields.length} in ${quote(line)}`);
    }
    const [prefix, memberField, groupField] = fields;
    if (prefix.length < 2 || !prefix.endsWith('*') || memberField === '') {
      throw new ReleaseFileError(fileName, i + 1, `expected "LOCUS*;members;group", found ${quote(line)}`);
    }
    const shortMembers = memberField.split('/');
    const members = new Array<string>(shortMembers.length);
    for (let k = 0; k < shortMembers.length; k++) {
      if (shortMembers[k] === '') throw new ReleaseFileError(fileName, i + 1, `empty member in ${quote(line)}`);
      members[k] = prefix + shortMembers[k];
    }
    const group = groupField.trim();
    rows.push({ locus: prefix.slice(0, -1), members, group: group === '' ? null : prefix + group });
  }
  if (rows.length === 0) throw new ReleaseFileError(fileName, null, 'no group rows');
  return { version, rows };
}
