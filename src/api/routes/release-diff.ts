/**
 * Release diff for keyed callers (docs/release-diff.md): what would be answered differently if
 * the key's pin moved from its release to another loaded one.
 *
 *   GET  /v1/release-diff?to=TAG            every name either release knows
 *   POST /v1/release-diff {to, names[]}     only the caller's own typings (at most 5,000)
 *
 * Anonymous callers get 401: the diff is the keyed customers' notice before a release change and
 * starts from the key's pin. A `to` that is not loaded gets 422 listing the loaded releases.
 * Requests never load a release; the operator decides which releases the process holds.
 *
 * Wiring (src/api/app.ts): `await app.register(releaseDiffRoutes, { ctx })`, before the 405 routes.
 */
import { Type, type Static } from '@sinclair/typebox';
import type { FastifyPluginAsync } from 'fastify';
import { RequestError, validationError } from '../../errors.ts';
import type { Engine } from '../../nomenclature/engine-types.ts';
import { TOKEN_STATUSES } from '../../nomenclature/types.ts';
import { MAX_TYPINGS } from '../../operations/schemas.ts';
import type { ReleaseCatalog } from '../../releases.ts';
import { diffReleases } from '../../release-diff/diff.ts';
import { describeLoaded, findLoaded } from '../../release-diff/release-tag.ts';
import { CHANGE_KINDS, type ChangeKind, type ReleaseDiff } from '../../release-diff/types.ts';
import { errorResponses, JSON_BODY_ERRORS, V1_ERRORS } from '../openapi.ts';

/** The normalize limit: a customer's typings list fits one call of either. */
export const MAX_DIFF_NAMES = MAX_TYPINGS;

export interface ReleaseDiffRouteOptions {
  readonly ctx: { readonly catalog: Pick<ReleaseCatalog, 'loaded'> };
}

// ---------------------------------------------------------------------------------------------
// Schemas: request validation and the OpenAPI document (responses are written with JSON.stringify).

const ToField = Type.String({
  minLength: 1,
  maxLength: 64,
  description: 'A loaded release, by version (`3.65.0`) or git tag (`v3.65.0-alpha`).',
  examples: ['3.65.0'],
});

export const ReleaseDiffQuery = Type.Object({ to: ToField }, { additionalProperties: false });

export const ReleaseDiffRequest = Type.Object(
  {
    to: ToField,
    names: Type.Array(Type.String(), {
      maxItems: MAX_DIFF_NAMES,
      description: `The caller's typings (any era); only these are compared. At most ${MAX_DIFF_NAMES}.`,
    }),
  },
  { additionalProperties: false, title: 'ReleaseDiffRequest' },
);

function perKind<T extends ReturnType<typeof Type.Integer> | ReturnType<typeof Type.Array>>(
  value: () => T,
): Record<ChangeKind, T> {
  return Object.fromEntries(CHANGE_KINDS.map((kind) => [kind, value()])) as Record<ChangeKind, T>;
}

const count = () => Type.Integer({ minimum: 0 });
const KindCounts = Type.Object(perKind(count), { additionalProperties: false });
const ChangeKindSchema = Type.Union(CHANGE_KINDS.map((kind) => Type.Literal(kind)));

const VerdictSnapshot = Type.Object(
  {
    status: Type.Union(TOKEN_STATUSES.map((status) => Type.Literal(status))),
    successor: Type.Union([Type.String(), Type.Null()]),
    current_name: Type.String(),
    allele_2field: Type.String(),
    g_group: Type.String(),
    flags: Type.Array(Type.String()),
  },
  { additionalProperties: false, description: "A name's verdict in one release (verify's status, normalize's row)." },
);

const VerdictChange = Type.Object(
  {
    name: Type.String(),
    locus: Type.String(),
    kind: ChangeKindSchema,
    kinds: Type.Array(ChangeKindSchema, { description: 'Every kind that changed, most important first.' }),
    from: VerdictSnapshot,
    to: VerdictSnapshot,
  },
  { additionalProperties: false },
);

const LocusCounts = Type.Object(
  { names_compared: count(), names_changed: count(), by_kind: KindCounts },
  { additionalProperties: false },
);

export const ReleaseDiffResponse = Type.Object(
  {
    from: Type.String({ description: "The key's pinned release.", examples: ['3.58.0'] }),
    to: Type.String({ examples: ['3.65.0'] }),
    from_tag: Type.String(),
    to_tag: Type.String(),
    scope: Type.Union([Type.Literal('known_names'), Type.Literal('given_names')]),
    summary: Type.Object(
      {
        names_compared: count(),
        names_changed: count(),
        by_kind: KindCounts,
        fields_changed: KindCounts,
        status_transitions: Type.Record(Type.String(), count()),
        by_locus: Type.Record(Type.String(), LocusCounts),
      },
      { additionalProperties: false },
    ),
    changes: Type.Object(
      perKind(() => Type.Array(VerdictChange)),
      { additionalProperties: false, description: 'Changed names under their most important kind, sorted by name.' },
    ),
  },
  { additionalProperties: false, title: 'ReleaseDiffResponse' },
);

// The schema and the engine-level type describe one shape: this stops compiling if they drift.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const schemaMatchesType: Same<Static<typeof ReleaseDiffResponse>, ReleaseDiff> = true;
void schemaMatchesType;

// ---------------------------------------------------------------------------------------------
// Routes

const SECURITY: Record<string, string[]>[] = [{ ApiKey: [] }, { Bearer: [] }];
const DESCRIPTION =
  "Compares the key's pinned release with another release this deployment has loaded: every " +
  'name whose verdict (status, current name, successor, 2-field name, G group, flags) differs, ' +
  'listed once under its most important kind. Keyed callers only.';

export const releaseDiffRoutes: FastifyPluginAsync<ReleaseDiffRouteOptions> = async (app, { ctx }) => {
  const fullDiffs = new FullDiffCache();

  /** The loaded engine `to` names, or a 422 that lists the loaded releases (never echoes `to`). */
  function target(to: string, field: string): Engine {
    const loaded = ctx.catalog.loaded();
    const engine = findLoaded(loaded, to);
    if (engine === undefined) {
      throw validationError(`${field} is not a loaded release; loaded releases: ${describeLoaded(loaded)}`);
    }
    return engine;
  }

  function pinned(request: { caller: { kind: string }; engine: Engine }): Engine {
    if (request.caller.kind !== 'key') {
      throw new RequestError(
        'unauthorized',
        "A release diff starts from a key's pinned release: send X-API-Key or Authorization: Bearer",
      );
    }
    return request.engine;
  }

  app.get<{ Querystring: Static<typeof ReleaseDiffQuery> }>(
    '/v1/release-diff',
    {
      schema: {
        tags: ['nomenclature'],
        summary: "Verdict changes between the key's release and another loaded release",
        description: `${DESCRIPTION} Compares every name either release knows.`,
        security: SECURITY,
        querystring: ReleaseDiffQuery,
        response: { 200: ReleaseDiffResponse, ...errorResponses(422, ...V1_ERRORS) },
      },
      config: { operation: 'release-diff' },
    },
    async (request): Promise<ReleaseDiff> => {
      const from = pinned(request);
      return fullDiffs.get(from, target(request.query.to, 'querystring/to'));
    },
  );

  app.post<{ Body: Static<typeof ReleaseDiffRequest> }>(
    '/v1/release-diff',
    {
      schema: {
        tags: ['nomenclature'],
        summary: "Verdict changes of the caller's own typings between its release and another",
        description: `${DESCRIPTION} Compares only the names sent (at most ${MAX_DIFF_NAMES}).`,
        security: SECURITY,
        body: ReleaseDiffRequest,
        response: { 200: ReleaseDiffResponse, ...errorResponses(...JSON_BODY_ERRORS, ...V1_ERRORS) },
      },
      config: { operation: 'release-diff' },
    },
    async (request): Promise<ReleaseDiff> => {
      const from = pinned(request);
      return diffReleases(from, target(request.body.to, 'body/to'), { names: request.body.names });
    },
  );
};

/**
 * A full diff is deterministic (engines are immutable) and costs a second or two of CPU, so each
 * pair of loaded releases is computed once per process and kept (a few MB per pair; a process
 * holds a handful of releases). Entries go with their engines.
 */
class FullDiffCache {
  private readonly byFrom = new WeakMap<Engine, WeakMap<Engine, ReleaseDiff>>();

  get(from: Engine, to: Engine): ReleaseDiff {
    let byTo = this.byFrom.get(from);
    if (byTo === undefined) {
      byTo = new WeakMap();
      this.byFrom.set(from, byTo);
    }
    let diff = byTo.get(to);
    if (diff === undefined) {
      diff = diffReleases(from, to);
      byTo.set(to, diff);
    }
    return diff;
  }
}
