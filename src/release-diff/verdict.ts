/**
 * One name's comparable verdict in one release, and which parts of two verdicts differ.
 * Both come from the engine's own answers (verify's classify, normalize's row), so the diff says
 * exactly what the endpoints would answer differently, never a second opinion.
 */
import type { Engine } from '../nomenclature/engine-types.ts';
import type { NormalizeRow, TokenVerdict } from '../nomenclature/types.ts';
import { CHANGE_KINDS, type ChangeKind, type VerdictSnapshot } from './types.ts';

/** The engine's two answers for a name, as returned (not copied: most names never change). */
export interface Answers {
  readonly verdict: Omit<TokenVerdict, 'occurrences'>;
  readonly row: NormalizeRow;
}

export function answersOf(engine: Engine, name: string): Answers {
  return { verdict: engine.classify(name), row: engine.normalizeOne(name) };
}

export function snapshotOf({ verdict, row }: Answers): VerdictSnapshot {
  return {
    status: verdict.status,
    successor: verdict.successor ?? null,
    current_name: row.current_name,
    allele_2field: row.allele_2field,
    g_group: row.g_group,
    flags: [...row.flags].sort(),
  };
}

export function verdictOf(engine: Engine, name: string): VerdictSnapshot {
  return snapshotOf(answersOf(engine, name));
}

function sameFlags(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((flag) => b.includes(flag));
}

function kindChanged(kind: ChangeKind, from: Answers, to: Answers): boolean {
  switch (kind) {
    case 'status':
      return from.verdict.status !== to.verdict.status;
    case 'successor':
      return (from.verdict.successor ?? null) !== (to.verdict.successor ?? null);
    case 'flags':
      return !sameFlags(from.row.flags, to.row.flags);
    default:
      return from.row[kind] !== to.row[kind];
  }
}

/** The kinds in which two answers differ, most important first; empty when they agree. */
export function changedKinds(from: Answers, to: Answers): ChangeKind[] {
  return CHANGE_KINDS.filter((kind) => kindChanged(kind, from, to));
}

/** A kind's value as one string: flags space-separated, a missing successor empty. */
export function kindValue(snapshot: VerdictSnapshot, kind: ChangeKind): string {
  if (kind === 'flags') return snapshot.flags.join(' ');
  return snapshot[kind] ?? '';
}
