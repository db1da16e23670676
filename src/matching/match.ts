/**
 * Donor–recipient match (SERVICE_SPEC "POST /v1/match", DOMAIN_RULES §8): validate, score the
 * framework's loci in order, assemble the response. Loci outside the framework are never read.
 */
import type { Engine } from '../nomenclature/engine-types.ts';
import { UNRESOLVABLE } from '../nomenclature/types.ts';
import { FRAMEWORK_LOCI } from './frameworks.ts';
import { emptyTally, scoreLocus } from './locus-score.ts';
import { tokenCodesOf } from './token-codes.ts';
import type { MatchFlag, MatchResponse, Verdict } from './types.ts';
import { validateMatchRequest, type ValidatedMatchRequest } from './validate.ts';

/**
 * Validates `request` (any JSON value) and matches it. Throws `RequestError` (422) when the shape
 * is wrong; names that do not resolve are a result (`potential`), never an error.
 */
export function match(engine: Engine, request: unknown): MatchResponse {
  return matchValidated(engine, validateMatchRequest(request));
}

/** Only for what `validateMatchRequest` returned: the scratch arrays hold at most 4 names. */
function matchValidated(engine: Engine, request: ValidatedMatchRequest): MatchResponse {
  const { framework, recipient, donor } = request;
  const codes = tokenCodesOf(engine);
  codes.trim();
  const tally = emptyTally();
  const verdicts: Record<string, Verdict> = {};
  for (const scored of FRAMEWORK_LOCI[framework]) {
    verdicts[scored.locus] = scoreLocus(codes, scored, recipient[scored.slot], donor[scored.slot], tally);
  }
  // Sorted by construction: the three flags are pushed in alphabetical order.
  const flags: MatchFlag[] = [];
  if (tally.nullAllele) flags.push('null_allele');
  if (tally.nullAlleleMismatch) flags.push('null_allele_mismatch');
  if (tally.resolutionInsufficient) flags.push('resolution_insufficient');
  return {
    release: engine.release,
    framework,
    count: tally.denominator === 0 ? UNRESOLVABLE : `${tally.matched}/${tally.denominator}`,
    verdicts,
    hvg_mismatches: tally.hvg,
    gvh_mismatches: tally.gvh,
    flags,
    attribution: engine.attribution,
  };
}
