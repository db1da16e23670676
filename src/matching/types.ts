/** Shapes of the match operation (SERVICE_SPEC "Match response", DOMAIN_RULES §8). */

export const FRAMEWORKS = ['6/6', '8/8', '10/10', '12/12', 'antigen'] as const;
export type Framework = (typeof FRAMEWORKS)[number];
export const DEFAULT_FRAMEWORK: Framework = '8/8';

export type Level = 'allele' | 'antigen';
export type Verdict = 'match' | 'mismatch' | 'potential';
export type MatchFlag = 'null_allele' | 'null_allele_mismatch' | 'resolution_insufficient';

/** Locus name → reported names (at most 4). */
export type Typing = Readonly<Record<string, readonly string[]>>;

export interface MatchRequest {
  framework?: Framework;
  recipient: Typing;
  donor: Typing;
}

export interface MatchResponse {
  release: string;
  framework: Framework;
  count: string; // "7/8" or "UNRESOLVABLE"
  verdicts: Record<string, Verdict>;
  hvg_mismatches: number;
  gvh_mismatches: number;
  flags: MatchFlag[];
  attribution: string;
}
