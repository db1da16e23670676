/**
 * Shape of a match request (SERVICE_SPEC "POST /v1/match", DOMAIN_RULES §8 "Validation").
 * Every failure is a 422 whose detail names the field and why, never the content sent.
 * Names themselves are not judged here: an unknown name is a result (`potential`), not an error.
 */
import { validationError } from '../errors.ts';
import { isFramework, MATCH_LOCI } from './frameworks.ts';
import { DEFAULT_FRAMEWORK, FRAMEWORKS, type Framework } from './types.ts';

/** Longest allele name accepted, in characters (the longest real name is about 20). */
export const MAX_NAME_LENGTH = 100;
/** Most locus keys one side may carry, ignored loci included. */
export const MAX_LOCI_PER_SIDE = 32;
/** Most names one locus may carry (SERVICE_SPEC "Limits"). */
export const MAX_NAMES_PER_LOCUS = 4;

const TOP_LEVEL_FIELDS = ['framework', 'recipient', 'donor'];

/** Names per locus of `MATCH_LOCI` (same positions); `undefined` = the locus was not given. */
export type LocusNames = readonly (readonly string[] | undefined)[];

export interface ValidatedMatchRequest {
  readonly framework: Framework;
  readonly recipient: LocusNames;
  readonly donor: LocusNames;
}

/**
 * Accepted spellings of a locus key → position in `MATCH_LOCI`: `A`, `HLA-A`, `A*`, `HLA-A*`,
 * and the pre-2010 `Cw` for C. Keys are case-sensitive like names (DOMAIN_RULES §2).
 */
const KEY_SLOT: ReadonlyMap<string, number> = (() => {
  const map = new Map<string, number>();
  const spellings = (locus: string): string[] => [locus, `HLA-${locus}`, `${locus}*`, `HLA-${locus}*`];
  MATCH_LOCI.forEach((locus, slot) => {
    for (const key of spellings(locus)) map.set(key, slot);
    if (locus === 'C') for (const key of spellings('Cw')) map.set(key, slot);
  });
  return map;
})();

/** Upper-cased spellings, to tell a wrongly cased locus (`drb1`) from a locus we do not score. */
const UPPER_KEYS: ReadonlySet<string> = new Set([...KEY_SLOT.keys()].map((key) => key.toUpperCase()));

/** Locus-shaped keys (`DRB3`, `HLA-DQA1*`) may be shown in a detail; any other key is named by its position. */
const LOCUS_SHAPED_KEY = /^(?:HLA-)?[A-Z]{1,4}[0-9]{0,2}\*?$/;

export function validateMatchRequest(request: unknown): ValidatedMatchRequest {
  if (!isPlainObject(request)) {
    throw validationError('body: must be a JSON object with recipient and donor');
  }
  for (const field in request) {
    if (!TOP_LEVEL_FIELDS.includes(field)) {
      throw validationError('body: unknown field; the fields are framework, recipient and donor');
    }
  }
  const framework = request.framework === undefined ? DEFAULT_FRAMEWORK : request.framework;
  if (!isFramework(framework)) {
    throw validationError(`framework: must be one of ${FRAMEWORKS.join(', ')} (default ${DEFAULT_FRAMEWORK})`);
  }
  return {
    framework,
    recipient: validateTyping('recipient', request.recipient),
    donor: validateTyping('donor', request.donor),
  };
}

function validateTyping(side: 'recipient' | 'donor', typing: unknown): LocusNames {
  if (typing === undefined) throw validationError(`${side}: required`);
  if (!isPlainObject(typing)) {
    throw validationError(
      `${side}: must be an object of locus name → list of at most ${MAX_NAMES_PER_LOCUS} allele names`,
    );
  }
  const names = noLoci();
  let position = 0;
  for (const key in typing) {
    position++;
    if (position > MAX_LOCI_PER_SIDE) throw validationError(`${side}: more than ${MAX_LOCI_PER_SIDE} loci`);
    const value = typing[key];
    validateNames(side, key, position, value);
    const slot = KEY_SLOT.get(key);
    if (slot === undefined) {
      if (UPPER_KEYS.has(key.toUpperCase())) {
        throw validationError(
          `${fieldName(side, key, position)}: not a locus name; locus names are case-sensitive (${MATCH_LOCI.join(', ')})`,
        );
      }
      continue; // a locus no framework scores: ignored
    }
    if (names[slot] !== undefined) {
      throw validationError(`${fieldName(side, key, position)}: locus ${MATCH_LOCI[slot]} is given twice`);
    }
    names[slot] = value;
  }
  return names;
}

/** One empty slot per locus of `MATCH_LOCI`; a literal, which is several times cheaper than `fill`. */
function noLoci(): (readonly string[] | undefined)[] {
  return [undefined, undefined, undefined, undefined, undefined, undefined];
}
if (noLoci().length !== MATCH_LOCI.length) throw new Error('noLoci() must have one slot per locus of MATCH_LOCI');

/** The field name is built only on failure: the happy path allocates nothing here. */
function validateNames(side: string, key: string, position: number, value: unknown): asserts value is readonly string[] {
  if (!Array.isArray(value)) {
    throw validationError(
      `${fieldName(side, key, position)}: must be a list of at most ${MAX_NAMES_PER_LOCUS} allele names`,
    );
  }
  if (value.length > MAX_NAMES_PER_LOCUS) {
    throw validationError(`${fieldName(side, key, position)}: more than ${MAX_NAMES_PER_LOCUS} names`);
  }
  for (let i = 0; i < value.length; i++) {
    const name: unknown = value[i];
    if (typeof name !== 'string') throw validationError(`${fieldName(side, key, position)}[${i}]: must be a string`);
    if (name.length > MAX_NAME_LENGTH) {
      throw validationError(`${fieldName(side, key, position)}[${i}]: longer than ${MAX_NAME_LENGTH} characters`);
    }
  }
}

/** `recipient.A`; a key that is not plainly a locus name is never echoed, only numbered. */
function fieldName(side: string, key: string, position: number): string {
  const shown = LOCUS_SHAPED_KEY.test(key) || UPPER_KEYS.has(key.toUpperCase());
  return shown ? `${side}.${key}` : `${side}[locus #${position}]`;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
