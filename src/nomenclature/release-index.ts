/**
 * Immutable look-up tables built once from a release's parsed files. Everything the resolver,
 * reductions and serology need is a Map here; nothing is computed per request that could be
 * computed once, except lazily memoized per-prefix facts.
 */
import type { DeletedRow, ReleaseTables } from '../reference/tables.ts';
import { nameParts } from './grammar.ts';

export interface HistoryFacts {
  /** HLA IDs that carried this exact spelling in some release. */
  readonly ids: readonly string[];
  /** The oldest release whose column holds this spelling. */
  readonly firstRelease: string;
}

export interface ReleaseIndex {
  readonly version: string;
  readonly tag: string;
  /** Current names in Allelelist order → HLA ID. */
  readonly currentById: ReadonlyMap<string, string>;
  readonly current: ReadonlyMap<string, string>;
  readonly currentNames: readonly string[];
  /** Prefix of 1–3 fields (no suffix) → current names under it, in Allelelist order. */
  readonly prefixMembers: ReadonlyMap<string, readonly string[]>;
  readonly deleted: ReadonlyMap<string, DeletedRow>;
  readonly deletedById: ReadonlyMap<string, DeletedRow>;
  readonly conversions: ReadonlyMap<string, string | null>;
  readonly gGroupOf: ReadonlyMap<string, string>;
  readonly pGroupOf: ReadonlyMap<string, string>;
  readonly gGroupMembers: ReadonlyMap<string, readonly string[]>;
  readonly pGroupMembers: ReadonlyMap<string, readonly string[]>;
  readonly dnaSerology: ReadonlyMap<string, readonly (readonly string[])[]>;
  /** Serology locus (A, B, Cw, DR, DQ) → associated code → antigen. */
  readonly associatedAntigen: ReadonlyMap<string, ReadonlyMap<string, string>>;
  readonly history: ReadonlyMap<string, HistoryFacts> | null;
  readonly confirmed: ReadonlyMap<string, boolean> | null;
}

function groupMaps(rows: ReleaseTables['gGroups']): {
  of: Map<string, string>;
  members: Map<string, string[]>;
} {
  const of = new Map<string, string>();
  const members = new Map<string, string[]>();
  for (const row of rows) {
    if (row.group === null) continue;
    let list = members.get(row.group);
    if (!list) members.set(row.group, (list = []));
    for (const member of row.members) {
      of.set(member, row.group);
      list.push(member);
    }
  }
  return { of, members };
}

function historyMap(tables: ReleaseTables): Map<string, HistoryFacts> | null {
  const history = tables.history;
  if (!history) return null;
  const ids = new Map<string, string[]>();
  const first = new Map<string, string>();
  for (const row of history.rows) {
    let previous: string | null = null;
    // Oldest column first, so the first sighting of a spelling is its first release.
    for (let i = row.names.length - 1; i >= 0; i--) {
      const name = row.names[i];
      if (name === null || name === previous) continue;
      previous = name;
      if (!first.has(name)) first.set(name, history.releases[i]);
      const list = ids.get(name);
      if (!list) ids.set(name, [row.id]);
      else if (!list.includes(row.id)) list.push(row.id);
    }
  }
  const facts = new Map<string, HistoryFacts>();
  for (const [name, idList] of ids) facts.set(name, { ids: idList, firstRelease: first.get(name)! });
  return facts;
}

export function buildReleaseIndex(tables: ReleaseTables): ReleaseIndex {
  const current = new Map<string, string>();
  const currentById = new Map<string, string>();
  const currentNames: string[] = [];
  const prefixMembers = new Map<string, string[]>();
  for (const { id, name } of tables.alleles) {
    current.set(name, id);
    currentById.set(id, name);
    currentNames.push(name);
    const parts = nameParts(name);
    if (!parts) continue;
    let prefix = `${parts.locus}*`;
    const depth = Math.min(parts.fields.length, 3);
    for (let i = 0; i < depth; i++) {
      prefix += (i === 0 ? '' : ':') + parts.fields[i];
      const list = prefixMembers.get(prefix);
      if (list) list.push(name);
      else prefixMembers.set(prefix, [name]);
    }
  }

  const deleted = new Map<string, DeletedRow>();
  const deletedById = new Map<string, DeletedRow>();
  for (const row of tables.deleted) {
    if (!deleted.has(row.name)) deleted.set(row.name, row);
    if (!deletedById.has(row.id)) deletedById.set(row.id, row);
  }

  const conversions = new Map<string, string | null>();
  for (const row of tables.conversions) conversions.set(row.legacy, row.current);

  const g = groupMaps(tables.gGroups);
  const p = groupMaps(tables.pGroups);

  const dnaSerology = new Map<string, readonly (readonly string[])[]>();
  for (const row of tables.dnaSerology) dnaSerology.set(row.allele, row.columns);

  const associatedAntigen = new Map<string, Map<string, string>>();
  for (const row of tables.serologyRelations) {
    let byCode = associatedAntigen.get(row.locus);
    if (!byCode) associatedAntigen.set(row.locus, (byCode = new Map()));
    for (const code of row.associated) if (!byCode.has(code)) byCode.set(code, row.antigen);
  }

  let confirmed: Map<string, boolean> | null = null;
  if (tables.alleleStatus) {
    confirmed = new Map();
    for (const row of tables.alleleStatus) confirmed.set(row.allele, row.confirmed);
  }

  return {
    version: tables.version,
    tag: tables.tag,
    current,
    currentById,
    currentNames,
    prefixMembers,
    deleted,
    deletedById,
    conversions,
    gGroupOf: g.of,
    pGroupOf: p.of,
    gGroupMembers: g.members,
    pGroupMembers: p.members,
    dnaSerology,
    associatedAntigen,
    history: historyMap(tables),
    confirmed,
  };
}
