/**
 * Finds allele-shaped tokens in free text (DOMAIN_RULES §4). A token is not preceded by a letter,
 * digit or `_`, and not followed by a letter, digit, `_` or `:`; every other character is a
 * boundary. A leading `HLA-` is not part of the token.
 */

// Locus `*` then: fields (≥ 2 digits, colon-separated) with at most one trailing capital
// (expression suffix, G/P, or a made-up letter the grammar will reject), an lg name, or a MAC/XX.
// The capital is kept permissive so that `A*01:01:01:01G` is reported (as hallucinated) rather
// than silently skipped.
const HLA_TOKEN =
  /(?<![A-Za-z0-9_])(?:HLA-)?((?:[A-Z]+[0-9]*|Cw)\*(?:[0-9]{2,}(?::[0-9]{2,})*[A-Z]?|[0-9]{2,}:[0-9]{2,}g|[0-9]{2,}:[A-Z]{2,5}))(?![A-Za-z0-9_:])/g;

const KIR_TOKEN = /(?<![A-Za-z0-9_])((?:KIR)?[23]D[LPS][0-9]?[AB]?\*[0-9]{3,}(?::[0-9]+)*[A-Z]?)(?![A-Za-z0-9_:])/g;

/** Distinct tokens of a text with their number of occurrences, in order of first appearance. */
export function findTokens(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const pattern of [HLA_TOKEN, KIR_TOKEN]) {
    pattern.lastIndex = 0;
    let m: RegExpExecArray | null;
    while ((m = pattern.exec(text)) !== null) {
      const token = m[1];
      counts.set(token, (counts.get(token) ?? 0) + 1);
    }
  }
  return counts;
}
