/**
 * Verdict diff between two loaded releases: for every name either release knows (or the caller's
 * own names), what verify and normalize answer in each, and which names would be answered
 * differently once a pin moves from one to the other. Pure: engines in, a plain object out.
 */
import type { Engine } from '../nomenclature/engine-types.ts';
import { locusOf } from './locus.ts';
import {
  CHANGE_KINDS,
  type ChangeKind,
  type DiffOptions,
  type DiffSummary,
  type KindCounts,
  type LocusCounts,
  type ReleaseDiff,
  type VerdictChange,
} from './types.ts';
import { answersOf, changedKinds, snapshotOf } from './verdict.ts';

export function diffReleases(from: Engine, to: Engine, options: DiffOptions = {}): ReleaseDiff {
  const names = options.names === undefined ? unionOfKnownNames(from, to) : givenNames(options.names);
  const changes = emptyGroups();
  const tally = new Tally();
  for (const name of names) {
    const locus = locusOf(name);
    const before = answersOf(from, name);
    const after = answersOf(to, name);
    const kinds = changedKinds(before, after);
    if (kinds.length === 0) {
      tally.unchanged(locus);
      continue;
    }
    const change: VerdictChange = {
      name,
      locus,
      kind: kinds[0],
      kinds,
      from: snapshotOf(before),
      to: snapshotOf(after),
    };
    changes[change.kind].push(change);
    tally.changed(change);
  }
  return {
    from: from.release,
    to: to.release,
    from_tag: from.tag,
    to_tag: to.tag,
    scope: options.names === undefined ? 'known_names' : 'given_names',
    summary: tally.summary(),
    changes,
  };
}

/**
 * Every name either release knows, each once, in code-unit order (which keeps loci together).
 * `knownNames()` is sorted already, so a merge does; an unsorted list is sorted first.
 */
function unionOfKnownNames(from: Engine, to: Engine): string[] {
  const a = sortedCopy(from.knownNames());
  const b = sortedCopy(to.knownNames());
  const union: string[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    const next = j >= b.length || (i < a.length && a[i] <= b[j]) ? a[i] : b[j];
    if (i < a.length && a[i] === next) i++;
    if (j < b.length && b[j] === next) j++;
    if (union.length === 0 || union[union.length - 1] !== next) union.push(next);
  }
  return union;
}

function sortedCopy(names: readonly string[]): readonly string[] {
  for (let k = 1; k < names.length; k++) if (names[k - 1] > names[k]) return [...names].sort();
  return names;
}

function givenNames(names: readonly string[]): string[] {
  const distinct = new Set<string>();
  for (const name of names) {
    const trimmed = name.trim();
    if (trimmed !== '') distinct.add(trimmed);
  }
  return [...distinct].sort();
}

function emptyGroups(): Record<ChangeKind, VerdictChange[]> {
  return Object.fromEntries(CHANGE_KINDS.map((kind) => [kind, []])) as unknown as Record<
    ChangeKind,
    VerdictChange[]
  >;
}

function zeroCounts(): KindCounts {
  return Object.fromEntries(CHANGE_KINDS.map((kind) => [kind, 0])) as KindCounts;
}

class Tally {
  private compared = 0;
  private changedNames = 0;
  private readonly byKind = zeroCounts();
  private readonly fieldsChanged = zeroCounts();
  private readonly transitions = new Map<string, number>();
  private readonly loci = new Map<string, LocusCounts>();

  unchanged(locus: string): void {
    this.compared++;
    this.locus(locus).names_compared++;
  }

  changed(change: VerdictChange): void {
    this.compared++;
    this.changedNames++;
    this.byKind[change.kind]++;
    for (const kind of change.kinds) this.fieldsChanged[kind]++;
    if (change.from.status !== change.to.status) {
      const key = `${change.from.status}->${change.to.status}`;
      this.transitions.set(key, (this.transitions.get(key) ?? 0) + 1);
    }
    const locus = this.locus(change.locus);
    locus.names_compared++;
    locus.names_changed++;
    locus.by_kind[change.kind]++;
  }

  summary(): DiffSummary {
    return {
      names_compared: this.compared,
      names_changed: this.changedNames,
      by_kind: this.byKind,
      fields_changed: this.fieldsChanged,
      status_transitions: Object.fromEntries([...this.transitions].sort(byKey)),
      by_locus: Object.fromEntries([...this.loci].sort(byKey)),
    };
  }

  private locus(locus: string): LocusCounts {
    let counts = this.loci.get(locus);
    if (counts === undefined) {
      counts = { names_compared: 0, names_changed: 0, by_kind: zeroCounts() };
      this.loci.set(locus, counts);
    }
    return counts;
  }
}

function byKey(a: readonly [string, unknown], b: readonly [string, unknown]): number {
  return a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0;
}
