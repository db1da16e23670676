/**
 * Match frameworks (DOMAIN_RULES §8 R5): which loci each one scores, in verdict order, and at
 * which level. This table is the only place that knows them.
 */
import { FRAMEWORKS, type Framework, type Level } from './types.ts';

/** Every locus some framework scores. Keys of a typing outside this list are ignored. */
export const MATCH_LOCI = ['A', 'B', 'C', 'DRB1', 'DQB1', 'DPB1'] as const;
export type MatchLocus = (typeof MATCH_LOCI)[number];

export interface ScoredLocus {
  readonly locus: MatchLocus;
  /** Position of the locus in `MATCH_LOCI`: where the validated typing keeps its names. */
  readonly slot: number;
  readonly level: Level;
}

function scored(locus: MatchLocus, level: Level): ScoredLocus {
  return Object.freeze({ locus, slot: MATCH_LOCI.indexOf(locus), level });
}

export const FRAMEWORK_LOCI: Readonly<Record<Framework, readonly ScoredLocus[]>> = Object.freeze({
  '6/6': Object.freeze([scored('A', 'antigen'), scored('B', 'antigen'), scored('DRB1', 'allele')]),
  '8/8': Object.freeze([
    scored('A', 'allele'),
    scored('B', 'allele'),
    scored('C', 'allele'),
    scored('DRB1', 'allele'),
  ]),
  '10/10': Object.freeze([
    scored('A', 'allele'),
    scored('B', 'allele'),
    scored('C', 'allele'),
    scored('DRB1', 'allele'),
    scored('DQB1', 'allele'),
  ]),
  '12/12': Object.freeze([
    scored('A', 'allele'),
    scored('B', 'allele'),
    scored('C', 'allele'),
    scored('DRB1', 'allele'),
    scored('DQB1', 'allele'),
    scored('DPB1', 'allele'),
  ]),
  antigen: Object.freeze([
    scored('A', 'antigen'),
    scored('B', 'antigen'),
    scored('C', 'antigen'),
    scored('DRB1', 'antigen'),
    scored('DQB1', 'antigen'),
  ]),
});

export function isFramework(value: unknown): value is Framework {
  return typeof value === 'string' && (FRAMEWORKS as readonly string[]).includes(value);
}
