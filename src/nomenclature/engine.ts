/**
 * The nomenclature engine of one release: immutable tables built once, then pure answers.
 */
import type { ReleaseTables } from '../reference/tables.ts';
import { AntigenMapper } from './antigen.ts';
import { attributionLine } from './attribution.ts';
import type { Engine, Resolution } from './engine-types.ts';
import { lookupName } from './lookup.ts';
import { normalizeRow } from './normalize.ts';
import { Reductions } from './reduction.ts';
import { buildReleaseIndex } from './release-index.ts';
import { Resolver } from './resolver.ts';
import type { LookupResult, NormalizeRow } from './types.ts';
import { classifyToken, type Verdict, type VerifyContext, verifyText } from './verify.ts';

const MEMO_LIMIT = 200_000;

/** A Map that forgets everything when full: bounded memory whatever callers send. */
function memoized<V>(compute: (key: string) => V): (key: string) => V {
  const memo = new Map<string, V>();
  return (key) => {
    let value = memo.get(key);
    if (value === undefined) {
      value = compute(key);
      if (memo.size >= MEMO_LIMIT) memo.clear();
      memo.set(key, value);
    }
    return value;
  };
}

/** Memoized answers are shared between callers: freeze them so that none can alter another's. */
function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

export function buildEngine(tables: ReleaseTables): Engine {
  const index = buildReleaseIndex(tables);
  const resolver = new Resolver(index);
  const reductions = new Reductions(index);
  const antigens = new AntigenMapper(index, reductions);
  const attribution = attributionLine(tables.version, tables.tag);
  const resolve = (name: string): Resolution => resolver.resolve(name);

  const verifyContext: VerifyContext = {
    release: tables.version,
    attribution,
    historyLoaded: index.history !== null,
    resolve,
    reductions,
  };
  const classify = memoized<Verdict>((token) => Object.freeze(classifyToken(token, verifyContext)));
  const normalizeOne = memoized<NormalizeRow>((reported) =>
    Object.freeze(normalizeRow(reported, resolver.resolve(reported), reductions)),
  );
  const lookupContext = { index, reductions, resolve };
  const lookup = memoized<LookupResult>((name) => deepFreeze(lookupName(name, lookupContext)));
  let knownNames: readonly string[] | null = null;

  return {
    release: tables.version,
    tag: tables.tag,
    attribution,
    alleleCount: tables.alleles.length,
    missingOptional: tables.missingOptional,
    resolve,
    verify: (text) => verifyText(text, verifyContext, classify),
    normalize: (typings) => ({
      release: tables.version,
      rows: typings.map(normalizeOne),
      attribution,
    }),
    normalizeOne,
    lookup,
    antigen: (reported) => antigens.antigenOf(resolver.resolve(reported)),
    classify,
    knownNames: () => (knownNames ??= collectKnownNames(tables, index)),
    isFirstFieldOnly: (r) => r.name !== null && r.kind !== 'allele' && r.kind !== 'group' && !r.name.includes(':'),
  };
}

function collectKnownNames(tables: ReleaseTables, index: ReturnType<typeof buildReleaseIndex>): readonly string[] {
  const names = new Set<string>(index.currentNames);
  for (const prefix of index.prefixMembers.keys()) names.add(prefix);
  for (const row of tables.deleted) names.add(row.name);
  for (const group of index.gGroupMembers.keys()) names.add(group);
  for (const group of index.pGroupMembers.keys()) names.add(group);
  for (const row of tables.conversions) names.add(row.legacy);
  if (index.history) for (const name of index.history.keys()) names.add(name);
  return [...names].sort();
}
