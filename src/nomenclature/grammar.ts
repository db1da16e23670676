/**
 * Name grammar (DOMAIN_RULES §2): recognises the shape of one name, without looking anything up.
 * Case-sensitive: `cw*`, `CW*` and lower-case loci are not names.
 */

export const EXPRESSION_SUFFIXES = 'NLSCAQ';

export type NameShape =
  /** `Cw*07:02`: the pre-2010 locus with colon fields; `rewritten` is the `C*` spelling. */
  | { kind: 'cw_colon'; rewritten: string }
  /** NMDP multiple allele code, `A*02:AB`. */
  | { kind: 'mac'; locus: string }
  /** `A*02:XX`; `rewritten` is the first-field prefix `A*02`. */
  | { kind: 'xx'; rewritten: string }
  /** `A*02:01g`; `rewritten` is the 2-field name `A*02:01`. */
  | { kind: 'lg'; rewritten: string }
  /** `A*02:01:01G`, `DPB1*04:01P`. */
  | { kind: 'group'; locus: string; groupType: 'G' | 'P' }
  /** Colon-less pre-2010 name, `A*0101`, `Cw*0702`, `A*020101N`. */
  | { kind: 'legacy'; locus: string; digits: string; suffix: string }
  /** Current name or prefix: 1–4 fields of ≥ 2 digits, optional expression suffix. */
  | { kind: 'name'; locus: string; fields: readonly string[]; suffix: string }
  /** KIR gene names belong to the IPD-KIR database. */
  | { kind: 'kir' }
  | { kind: 'none' };

const LOCUS = String.raw`[A-Z]+[0-9]*`;
const FIELD = String.raw`[0-9]{2,}`;

const CW_COLON = /^Cw\*([0-9].*:.*)$/;
const MAC = new RegExp(String.raw`^(${LOCUS})\*${FIELD}:(?!XX$)[A-Z]{2,5}$`);
const XX = new RegExp(String.raw`^(${LOCUS})\*(${FIELD}):XX$`);
const LG = new RegExp(String.raw`^(${LOCUS}\*${FIELD}:${FIELD})g$`);
const GROUP = new RegExp(String.raw`^(${LOCUS})\*${FIELD}(?::${FIELD}){0,2}([GP])$`);
const LEGACY = new RegExp(String.raw`^(${LOCUS}|Cw)\*([0-9]{4,})([${EXPRESSION_SUFFIXES}]?)$`);
const NAME = new RegExp(String.raw`^(${LOCUS})\*(${FIELD}(?::${FIELD}){0,3})([${EXPRESSION_SUFFIXES}]?)$`);
export const KIR_NAME = /^(?:KIR)?[23]D[LPS][0-9]?[AB]?\*[0-9]{3,}(?::?[0-9]+)*[A-Z]?$/;

/** Drops surrounding white space and one leading `HLA-`. */
export function stripName(reported: string): string {
  const trimmed = reported.trim();
  return trimmed.startsWith('HLA-') ? trimmed.slice(4) : trimmed;
}

export function parseName(name: string): NameShape {
  if (name.length > 64 || !name.includes('*')) return { kind: 'none' };
  let m = CW_COLON.exec(name);
  if (m) return { kind: 'cw_colon', rewritten: `C*${m[1]}` };
  if ((m = MAC.exec(name))) return { kind: 'mac', locus: m[1] };
  if ((m = XX.exec(name))) return { kind: 'xx', rewritten: `${m[1]}*${m[2]}` };
  if ((m = LG.exec(name))) return { kind: 'lg', rewritten: m[1] };
  if ((m = GROUP.exec(name))) return { kind: 'group', locus: m[1], groupType: m[2] as 'G' | 'P' };
  if ((m = LEGACY.exec(name))) return { kind: 'legacy', locus: m[1], digits: m[2], suffix: m[3] };
  if ((m = NAME.exec(name))) return { kind: 'name', locus: m[1], fields: m[2].split(':'), suffix: m[3] };
  if (KIR_NAME.test(name)) return { kind: 'kir' };
  return { kind: 'none' };
}

/** The colon form of an even-length colon-less name (`A*020101N` → `A*02:01:01N`); null when odd. */
export function splitLegacyDigits(locus: string, digits: string, suffix: string): string | null {
  if (digits.length % 2 !== 0) return null;
  const fields: string[] = [];
  for (let i = 0; i < digits.length; i += 2) fields.push(digits.slice(i, i + 2));
  return `${locus === 'Cw' ? 'C' : locus}*${fields.join(':')}${suffix}`;
}

/** The trailing letter of a name (expression suffix, or G/P of a group name); '' when it ends in a digit. */
export function trailingLetter(name: string): string {
  return name.charCodeAt(name.length - 1) > 57 /* not a digit */ ? name[name.length - 1] : '';
}

/** Splits a full name into locus, fields and expression suffix; null when it is not name-shaped. */
export function nameParts(name: string): { locus: string; fields: string[]; suffix: string } | null {
  const star = name.indexOf('*');
  if (star <= 0) return null;
  const suffix = trailingLetter(name);
  const body = name.slice(star + 1, name.length - suffix.length);
  return { locus: name.slice(0, star), fields: body.split(':'), suffix };
}

/** `A*01:01:01:02N` → `A*01:01` (n = 2): locus and the first n fields, no suffix. */
export function truncateFields(name: string, n: number): string {
  const parts = nameParts(name);
  if (!parts) return name;
  return `${parts.locus}*${parts.fields.slice(0, n).join(':')}`;
}
