/**
 * The diff as CSV: one row per changed name, listed under its most important kind (the same
 * entries, in the same order, as the JSON `changes` groups). `from`/`to` hold that kind's values;
 * the `from_*`/`to_*` columns hold the whole verdict on each side, so other kinds stay visible.
 */
import { stringify } from 'csv-stringify/sync';
import { CHANGE_KINDS, type ReleaseDiff, type VerdictChange, type VerdictSnapshot } from './types.ts';
import { kindValue } from './verdict.ts';

const SIDE_FIELDS = CHANGE_KINDS;

export const CSV_COLUMNS: readonly string[] = [
  'name',
  'locus',
  'kind',
  'from',
  'to',
  'kinds',
  ...SIDE_FIELDS.flatMap((field) => [`from_${field}`, `to_${field}`]),
];

/** Entries of every kind group, kinds in importance order, names sorted within each. */
export function listedChanges(diff: ReleaseDiff): VerdictChange[] {
  return CHANGE_KINDS.flatMap((kind) => diff.changes[kind]);
}

function row(change: VerdictChange): string[] {
  const side = (snapshot: VerdictSnapshot, field: (typeof SIDE_FIELDS)[number]) => kindValue(snapshot, field);
  return [
    change.name,
    change.locus,
    change.kind,
    kindValue(change.from, change.kind),
    kindValue(change.to, change.kind),
    change.kinds.join(' '),
    ...SIDE_FIELDS.flatMap((field) => [side(change.from, field), side(change.to, field)]),
  ];
}

/** Header plus one line per listed change, `\n`-terminated. */
export function diffToCsv(diff: ReleaseDiff): string {
  return stringify([CSV_COLUMNS as string[], ...listedChanges(diff).map(row)]);
}
