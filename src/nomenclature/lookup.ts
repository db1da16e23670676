/**
 * Allele lookup (DOMAIN_RULES §6): facts for one name, through the same resolver. The only
 * operation for which a name that resolves to nothing is an error (404).
 */
import type { Resolution } from './engine-types.ts';
import { parseName, stripName } from './grammar.ts';
import { NO_G_GROUP, type Reductions } from './reduction.ts';
import type { ReleaseIndex } from './release-index.ts';
import { legacyColonForm } from './resolver.ts';
import type { AlleleFacts, LookupResult, SerologyFacts } from './types.ts';

const SAMPLE_SIZE = 10;
/** rel_dna_ser columns after the allele; releases from 3.64.0 add columns the file does not name. */
const SEROLOGY_COLUMNS = ['unambiguous', 'possible', 'assumed', 'expert'];
const MAX_ECHO = 80;

export interface LookupContext {
  readonly index: ReleaseIndex;
  readonly reductions: Reductions;
  resolve(name: string): Resolution;
}

function echo(input: string): string {
  return input.length > MAX_ECHO ? `${input.slice(0, MAX_ECHO)}…` : input;
}

/** The name a Cw, XX, lg or legacy input is rewritten to before it is looked up. */
function rewriteOf(name: string, index: ReleaseIndex): string | null {
  const shape = parseName(name);
  switch (shape.kind) {
    case 'cw_colon':
    case 'xx':
    case 'lg':
      return shape.rewritten;
    case 'legacy':
      return legacyColonForm(name, shape, index);
    default:
      return null;
  }
}

function serologyOf(columns: readonly (readonly string[])[] | undefined): SerologyFacts {
  const facts: SerologyFacts = {};
  if (!columns) return facts;
  columns.forEach((codes, i) => {
    if (codes.length > 0) facts[SEROLOGY_COLUMNS[i] ?? `column_${i + 3}`] = [...codes];
  });
  return facts;
}

function notFound(input: string, name: string, ctx: LookupContext): string {
  const release = `release ${ctx.index.version}`;
  const shape = parseName(name);
  if (shape.kind === 'none') {
    return `'${echo(input)}' is not an allele name: expected LOCUS*FIELD[:FIELD]… such as A*02:01 (${release})`;
  }
  if (shape.kind === 'kir') {
    return `'${echo(input)}' is a KIR name (IPD-KIR database); it is not assigned in ${release}`;
  }
  const rewritten = rewriteOf(name, ctx.index);
  if (rewritten !== null && rewritten !== name) {
    return `'${echo(input)}' stands for '${echo(rewritten)}', which is not assigned in ${release}`;
  }
  return `'${echo(input)}' is not assigned in ${release}`;
}

export function lookupName(input: string, ctx: LookupContext): LookupResult {
  const name = stripName(input);
  const r = ctx.resolve(name);
  const release = ctx.index.version;
  const base = { release, name };
  const extra: { resolves_to?: string; flags?: Resolution['flags'][number][] } = {};
  if (r.flags.length > 0) extra.flags = [...r.flags];
  if (r.name !== null && r.name !== name && r.outcome !== 'deleted') extra.resolves_to = r.name;

  let facts: AlleleFacts;
  if (r.outcome === 'deleted') {
    facts = {
      ...base,
      status: 'deleted',
      successor: r.name,
      reason: r.deletion?.reason ?? (r.name !== null ? 'Earlier name of this allele (release history).' : null),
      ...extra,
    };
  } else if (r.outcome === 'mac_code') {
    facts = {
      ...base,
      status: 'mac_code',
      note: 'NMDP multiple allele code: recognised, not expanded (the MAC table is not part of the release).',
      ...extra,
    };
  } else if (r.name === null || r.kind === null) {
    return { found: false, detail: notFound(input, name, ctx) };
  } else if (r.kind === 'allele') {
    const index = ctx.index;
    facts = {
      ...base,
      status: 'assigned',
      confirmed: index.confirmed?.get(r.name) ?? null,
      g_group: index.gGroupOf.get(r.name) ?? NO_G_GROUP,
      p_group: index.pGroupOf.get(r.name) ?? null,
      first_release: index.history?.get(r.name)?.firstRelease ?? null,
      serology: serologyOf(index.dnaSerology.get(r.name)),
      null_allele: r.name.endsWith('N'),
      ...extra,
    };
  } else {
    const members = ctx.reductions.of(r.name, r.kind).members;
    const sample = { members_count: members.length, members_sample: members.slice(0, SAMPLE_SIZE) };
    facts =
      r.kind === 'group'
        ? { ...base, status: 'group', group_type: r.name.endsWith('G') ? 'G' : 'P', ...sample, ...extra }
        : { ...base, status: 'valid_prefix', ...sample, ...extra };
  }
  return { found: true, facts };
}
