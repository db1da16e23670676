/**
 * Scoring of one locus (DOMAIN_RULES §8 R1–R4, R6), on the token codes of `token-codes.ts`
 * (every name read through the engine's one resolver).
 *
 * This runs a few hundred thousand times a second in bulk matching, so it allocates nothing:
 * tokens go into two scratch arrays owned by this module (JavaScript runs one call at a time and
 * the engine never calls back into matching, so they are never shared), and the figures of a
 * locus are added into the caller's tally.
 */
import { validationError } from '../errors.ts';
import type { ScoredLocus } from './frameworks.ts';
import {
  locusCode,
  locusOfCode,
  NO_TOKEN,
  NULL_ALLELE,
  TOO_COARSE,
  tokenOfCode,
  UNRESOLVED,
  type TokenCodes,
} from './token-codes.ts';
import type { Verdict } from './types.ts';
import { MAX_NAMES_PER_LOCUS } from './validate.ts';

/** Running totals of one match, filled locus by locus. */
export interface MatchTally {
  matched: number;
  denominator: number;
  hvg: number;
  gvh: number;
  nullAllele: boolean;
  nullAlleleMismatch: boolean;
  resolutionInsufficient: boolean;
}

export function emptyTally(): MatchTally {
  return {
    matched: 0,
    denominator: 0,
    hvg: 0,
    gvh: 0,
    nullAllele: false,
    nullAlleleMismatch: false,
    resolutionInsufficient: false,
  };
}

/** A locus has two chromosomes: no figure of one locus exceeds 2, whatever the list lengths. */
const CHROMOSOMES = 2;

// Result bits of `collectTokens`: the token count sits in the low three bits.
const COUNT_MASK = 7;
const POTENTIAL = 8;
const NULL_SEEN = 16;

const recipientTokens = new Int32Array(MAX_NAMES_PER_LOCUS);
const donorTokens = new Int32Array(MAX_NAMES_PER_LOCUS);
/** Code of each recipient name at the locus being scored, by position. */
const recipientCodes = new Int32Array(MAX_NAMES_PER_LOCUS);

/**
 * Scores one framework locus and adds it to `tally`. `recipient` / `donor` are the names given
 * at the locus, `undefined` when the side does not carry it.
 */
export function scoreLocus(
  codes: TokenCodes,
  scored: ScoredLocus,
  recipient: readonly string[] | undefined,
  donor: readonly string[] | undefined,
  tally: MatchTally,
): Verdict {
  // Both sides are read even when one is missing: a null allele is reported wherever it is.
  const r =
    recipient === undefined ? POTENTIAL : collectTokens(codes, scored, recipient, 'recipient', recipientTokens, undefined);
  const d = donor === undefined ? POTENTIAL : collectTokens(codes, scored, donor, 'donor', donorTokens, recipient);
  const nullSeen = ((r | d) & NULL_SEEN) !== 0;
  if (nullSeen) tally.nullAllele = true;
  if (((r | d) & POTENTIAL) !== 0) {
    tally.resolutionInsufficient = true;
    return 'potential';
  }
  const nr = r & COUNT_MASK;
  const nd = d & COUNT_MASK;
  if (nr === 0 && nd === 0) {
    // Nothing typed on either side (empty lists, or nulls only at antigen level): nothing to call.
    tally.resolutionInsufficient = true;
    return 'potential';
  }

  // R2: size of the multiset intersection, each donor token used at most once.
  let matched = 0;
  let used = 0;
  for (let i = 0; i < nr; i++) {
    const token = recipientTokens[i];
    for (let j = 0; j < nd; j++) {
      if ((used & (1 << j)) === 0 && donorTokens[j] === token) {
        used |= 1 << j;
        matched++;
        break;
      }
    }
  }
  const slots = Math.max(nr, nd, 1);
  const mismatches = Math.min(slots - matched, CHROMOSOMES);

  // R4: presence, not multiset — a homozygous recipient [x, x] against [x, y] has no GvH.
  let hvg = 0;
  for (let j = 0; j < nd; j++) if (!holds(recipientTokens, nr, donorTokens[j])) hvg++;
  let gvh = 0;
  for (let i = 0; i < nr; i++) if (!holds(donorTokens, nd, recipientTokens[i])) gvh++;

  tally.denominator += CHROMOSOMES;
  tally.matched += CHROMOSOMES - mismatches;
  tally.hvg += Math.min(hvg, CHROMOSOMES);
  tally.gvh += Math.min(gvh, CHROMOSOMES);
  if (mismatches === 0 && nullSeen && scored.level === 'antigen') tally.nullAlleleMismatch = true; // R3
  return mismatches === 0 ? 'match' : 'mismatch';
}

function holds(tokens: Int32Array, count: number, token: number): boolean {
  for (let i = 0; i < count; i++) if (tokens[i] === token) return true;
  return false;
}

/**
 * Writes the comparable tokens of `names` into `out` and returns their count, with `POTENTIAL`
 * when the locus cannot be called from this side (R6) and `NULL_SEEN` when a typing is a null
 * allele. Every name is read even after one makes the locus potential, so that null alleles are
 * always reported.
 */
function collectTokens(
  codes: TokenCodes,
  scored: ScoredLocus,
  names: readonly string[],
  side: 'recipient' | 'donor',
  out: Int32Array,
  recipientNames: readonly string[] | undefined,
): number {
  const expectedLocus = locusCode(scored.slot);
  let count = 0;
  let bits = 0;
  for (let i = 0; i < names.length; i++) {
    const name = names[i];
    let code = -1;
    if (recipientNames !== undefined) {
      // Donors often report a name exactly as the recipient did: its code is already known.
      for (let k = 0; k < recipientNames.length; k++) {
        if (recipientNames[k] === name) {
          code = recipientCodes[k];
          break;
        }
      }
    }
    if (code < 0) code = codes.code(name, scored.level);
    if (side === 'recipient') recipientCodes[i] = code;
    if ((code & UNRESOLVED) !== 0) {
      bits |= POTENTIAL;
      continue;
    }
    if (locusOfCode(code) !== expectedLocus) {
      throw validationError(`${side}.${scored.locus}[${i}]: resolves to an allele of another locus`);
    }
    if ((code & NULL_ALLELE) !== 0) bits |= NULL_SEEN;
    if ((code & TOO_COARSE) !== 0) bits |= POTENTIAL;
    if ((code & NO_TOKEN) === 0) out[count++] = tokenOfCode(code);
  }
  return count | bits;
}
