/**
 * Shapes of a release diff: the JSON body the API returns and the CLI prints (docs/release-diff.md).
 * Field names follow the verify and normalize responses, so a reviewer reads them the same way.
 */
import type { TokenStatus } from '../nomenclature/types.ts';

/**
 * The parts of a name's verdict a diff compares, most important first. A changed name is listed
 * once, under the first kind in this order that changed; `kinds` on the entry lists all of them.
 */
export const CHANGE_KINDS = [
  'status',
  'current_name',
  'successor',
  'allele_2field',
  'g_group',
  'flags',
] as const;
export type ChangeKind = (typeof CHANGE_KINDS)[number];

/**
 * One name's verdict in one release: `status` and `successor` as verify classifies the name,
 * the rest as normalize resolves it (`UNRESOLVABLE` when nothing resolves).
 */
export interface VerdictSnapshot {
  status: TokenStatus;
  /** Verify's successor of a deleted name; null when there is none (or the name is not deleted). */
  successor: string | null;
  current_name: string;
  allele_2field: string;
  g_group: string;
  /** Normalize's flags, sorted. */
  flags: string[];
}

export interface VerdictChange {
  name: string;
  /** Locus of the name (`Cw` counts as `C`; `?` when the name has no `*`). */
  locus: string;
  /** The most important kind that changed: the group this entry is listed under. */
  kind: ChangeKind;
  /** Every kind that changed, in `CHANGE_KINDS` order; the first is `kind`. */
  kinds: ChangeKind[];
  from: VerdictSnapshot;
  to: VerdictSnapshot;
}

export type KindCounts = Record<ChangeKind, number>;

export interface LocusCounts {
  names_compared: number;
  names_changed: number;
  /** Changed names of this locus by their listed (most important) kind. */
  by_kind: KindCounts;
}

export interface DiffSummary {
  names_compared: number;
  /** Names whose verdict differs in any kind; equals the number of entries listed. */
  names_changed: number;
  /** Entries listed under each kind; sums to `names_changed`. */
  by_kind: KindCounts;
  /** Names in which each kind changed, whatever kind they are listed under (a name counts in several). */
  fields_changed: KindCounts;
  /** Status moves among the changed names, keyed `from->to` (e.g. `valid->deleted`), sorted by key. */
  status_transitions: Record<string, number>;
  /** Per locus, sorted by locus; every compared locus appears, changed or not. */
  by_locus: Record<string, LocusCounts>;
}

/** Which names were compared: every name either release knows, or the caller's own list. */
export type DiffScope = 'known_names' | 'given_names';

export interface ReleaseDiff {
  /** Release versions, e.g. `3.58.0` and `3.65.0`. */
  from: string;
  to: string;
  from_tag: string;
  to_tag: string;
  scope: DiffScope;
  summary: DiffSummary;
  /** Changed names grouped by their most important kind; every kind is present, each list sorted by name. */
  changes: Record<ChangeKind, VerdictChange[]>;
}

export interface DiffOptions {
  /**
   * Compare only these names (trimmed; blanks and repeats dropped) instead of every known name.
   * Names neither release knows are compared too: they are `hallucinated` in both unless a
   * rewrite rule (Cw, XX, lg, legacy) places them.
   */
  readonly names?: readonly string[];
}
