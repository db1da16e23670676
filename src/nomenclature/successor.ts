/**
 * The successor named in a deletion description (DOMAIN_RULES §3.1). Descriptions are free English:
 * take the allele named right after a rename phrase (a few lower-case words may stand between),
 * failing that the first other allele name of two or more fields. The HLA-ID fallback and the
 * resolution of chains are the resolver's business; this module only reads text.
 */

const RENAME_PHRASE =
  /renamed and extended to|renamed to|renamed as|renamed|becoming|identical to|shown to be|the same as|newly named/g;
const ALLELE_IN_TEXT = String.raw`(?:[A-Z]+[0-9]*|Cw)\*[0-9]+(?::[0-9]+)*[A-Z]?`;
/** Up to five lower-case words, then the allele name. */
const NAME_AFTER_PHRASE = new RegExp(String.raw`^(?:\s+[a-z]+){0,5}\s+(${ALLELE_IN_TEXT})`);
const ANY_ALLELE = new RegExp(ALLELE_IN_TEXT, 'g');

function fieldCount(name: string): number {
  return name.split(':').length;
}

export function successorInDescription(deletedName: string, description: string): string | null {
  for (const phrase of description.matchAll(RENAME_PHRASE)) {
    const after = description.slice(phrase.index + phrase[0].length);
    const m = NAME_AFTER_PHRASE.exec(after);
    if (m && m[1] !== deletedName) return m[1];
  }
  for (const m of description.matchAll(ANY_ALLELE)) {
    const name = m[0];
    if (name !== deletedName && (fieldCount(name) >= 2 || !name.includes(':') && /\*[0-9]{4,}/.test(name))) {
      return name;
    }
  }
  return null;
}
