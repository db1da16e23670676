/**
 * Verify (DOMAIN_RULES §4): classify every allele-shaped token of a text. The status is read off
 * the resolver's outcome, so verify can never disagree with normalize or lookup.
 */
import type { Resolution, ResolutionOutcome } from './engine-types.ts';
import type { Reductions } from './reduction.ts';
import { findTokens } from './tokenizer.ts';
import { TOKEN_STATUSES, type TokenStatus, type TokenVerdict, type VerifyResponse } from './types.ts';

const STATUS_OF: Record<ResolutionOutcome, TokenStatus> = {
  assigned: 'valid',
  prefix: 'valid',
  group: 'group',
  deleted: 'deleted',
  fabricated_group: 'fabricated_group',
  mac_code: 'mac_code',
  out_of_scope: 'out_of_scope',
  nonexistent: 'hallucinated',
};

export type Verdict = Omit<TokenVerdict, 'occurrences'>;

export interface VerifyContext {
  readonly release: string;
  readonly attribution: string;
  readonly historyLoaded: boolean;
  resolve(token: string): Resolution;
  readonly reductions: Reductions;
}

function noteFor(token: string, r: Resolution, ctx: VerifyContext): string {
  const release = `release ${ctx.release}`;
  const rewritten = r.name !== null && r.name !== token && r.outcome !== 'deleted';
  switch (r.outcome) {
    case 'assigned':
      return rewritten
        ? `Older or alternative spelling of ${r.name}, which is assigned in ${release}.`
        : `Assigned in ${release}.`;
    case 'prefix':
      return rewritten
        ? `Stands for ${r.name}, a valid lower-resolution name in ${release}.`
        : `Valid lower-resolution name (prefix of assigned alleles) in ${release}.`;
    case 'group':
      return `${r.flags.includes('p_group_name') ? 'P' : 'G'} group name in ${release}.`;
    case 'deleted':
      return r.name !== null
        ? `No longer current in ${release}; replaced by ${r.name}.`
        : `No longer current in ${release}; no successor was named.`;
    case 'fabricated_group':
      return `Group-shaped, but no such G or P group exists in ${release}.`;
    case 'mac_code':
      return 'NMDP multiple allele code: recognised, not expanded (the MAC table is not part of the release).';
    case 'out_of_scope':
      return 'KIR name: belongs to the IPD-KIR database, outside HLA nomenclature.';
    case 'nonexistent':
      return ctx.historyLoaded
        ? `No such name in any release back to 1.05.0 (checked against ${release} and its history).`
        : `Not assigned, deleted or converted in ${release} (release history not loaded).`;
  }
}

export function classifyToken(token: string, ctx: VerifyContext): Verdict {
  const r = ctx.resolve(token);
  const verdict: Verdict = { token, status: STATUS_OF[r.outcome], note: noteFor(token, r, ctx) };
  if (r.outcome === 'deleted' && r.name !== null) verdict.successor = r.name;
  if (r.name !== null && r.kind !== null) {
    const reduction = ctx.reductions.of(r.name, r.kind);
    verdict.current_2field = reduction.allele2Field;
    verdict.g_group = reduction.gGroup;
  }
  verdict.flags = [...r.flags];
  return verdict;
}

export function emptyCounts(): Record<TokenStatus, number> {
  const counts = {} as Record<TokenStatus, number>;
  for (const status of TOKEN_STATUSES) counts[status] = 0;
  return counts;
}

export function verifyText(
  text: string,
  ctx: VerifyContext,
  classify: (token: string) => Verdict,
): VerifyResponse {
  const found = findTokens(text);
  const counts = emptyCounts();
  // Default sort compares UTF-16 code units, the order the spec's "sorted by name" means here.
  const sorted = [...found.keys()].sort();
  const tokens: TokenVerdict[] = new Array(sorted.length);
  for (let i = 0; i < sorted.length; i++) {
    const verdict = classify(sorted[i]);
    counts[verdict.status]++;
    tokens[i] = { ...verdict, occurrences: found.get(sorted[i])! };
  }
  const clean = counts.hallucinated === 0 && counts.fabricated_group === 0 && counts.deleted === 0;
  return { release: ctx.release, clean, counts, tokens, attribution: ctx.attribution };
}
