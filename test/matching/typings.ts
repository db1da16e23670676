/** Typings shared by the match tests: real 3.65.0 names, two per locus. */
import type { Typing } from '../../src/matching/types.ts';

/** A full typing at every locus a framework scores; all names are current, high-resolution and certain. */
export const BASE: Readonly<Record<string, readonly string[]>> = Object.freeze({
  A: ['A*01:01', 'A*02:01'],
  B: ['B*07:02', 'B*08:01'],
  C: ['C*07:01', 'C*07:02'],
  DRB1: ['DRB1*03:01', 'DRB1*15:01'],
  DQB1: ['DQB1*02:01', 'DQB1*06:02'],
  DPB1: ['DPB1*04:01', 'DPB1*02:01'],
});

/** `BASE` with some loci replaced; a locus set to `undefined` is removed. */
export function typing(changes: Record<string, readonly string[] | undefined> = {}): Typing {
  const result: Record<string, readonly string[]> = { ...BASE };
  for (const [locus, names] of Object.entries(changes)) {
    if (names === undefined) delete result[locus];
    else result[locus] = names;
  }
  return result;
}
