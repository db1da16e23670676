/**
 * Every request and response shape of the five operations, written once with TypeBox and used
 * three ways: Fastify validates requests with them (through `compileRequestCheck`, so the API and
 * the CLI produce the same 422 detail), the OpenAPI document is generated from them, and the
 * tests check real responses against them so the document stays true.
 */
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { TypeCompiler, type TypeCheck } from '@sinclair/typebox/compiler';
import { ValueErrorType, type ValueError } from '@sinclair/typebox/errors';
import { validationError } from '../errors.ts';
import {
  DEFAULT_FRAMEWORK,
  FRAMEWORKS,
  MAX_LOCI_PER_SIDE,
  MAX_NAME_LENGTH as MAX_MATCH_NAME_CHARS,
  MAX_NAMES_PER_LOCUS,
} from '../matching/index.ts';
import { TOKEN_STATUSES } from '../nomenclature/types.ts';

// ---------------------------------------------------------------------------------------------
// Limits (SERVICE_SPEC "Limits"; the match limits are the matcher's own, src/matching/validate.ts)

export const MAX_TEXT_CHARS = 200_000;
export const MAX_TYPINGS = 5_000;
export const MAX_USAGE_DAYS = 366;

// ---------------------------------------------------------------------------------------------
// Requests

export const VerifyRequest = Type.Object(
  {
    text: Type.String({
      maxLength: MAX_TEXT_CHARS,
      description: `Free text; every allele-shaped token gets a verdict. At most ${MAX_TEXT_CHARS} characters (UTF-16 code units).`,
    }),
  },
  { additionalProperties: false, title: 'VerifyRequest' },
);
export type VerifyRequest = Static<typeof VerifyRequest>;

export const NormalizeRequest = Type.Object(
  {
    typings: Type.Array(Type.String(), {
      maxItems: MAX_TYPINGS,
      description: `Reported typing strings of any nomenclature era; one row each. At most ${MAX_TYPINGS}.`,
    }),
  },
  { additionalProperties: false, title: 'NormalizeRequest' },
);
export type NormalizeRequest = Static<typeof NormalizeRequest>;

const FrameworkSchema = Type.Union(
  FRAMEWORKS.map((framework) => Type.Literal(framework)),
  { description: `Match framework; default ${DEFAULT_FRAMEWORK}.`, default: DEFAULT_FRAMEWORK },
);

export const TypingSchema = Type.Object(
  {},
  {
    additionalProperties: Type.Array(Type.String({ maxLength: MAX_MATCH_NAME_CHARS }), {
      maxItems: MAX_NAMES_PER_LOCUS,
    }),
    maxProperties: MAX_LOCI_PER_SIDE,
    description:
      `Locus name (A, B, C, DRB1, DQB1, DPB1; \`HLA-A\`, \`A*\` and \`Cw\` are accepted spellings) → ` +
      `at most ${MAX_NAMES_PER_LOCUS} allele names; two per locus expected. Loci the framework does not score are ignored.`,
    examples: [{ A: ['A*01:01', 'A*02:01'], B: ['B*07:02', 'B*08:01'] }],
  },
);

export const MatchRequest = Type.Object(
  {
    framework: Type.Optional(FrameworkSchema),
    recipient: TypingSchema,
    donor: TypingSchema,
  },
  { additionalProperties: false, title: 'MatchRequest' },
);
export type MatchRequest = Static<typeof MatchRequest>;

export const AlleleParams = Type.Object({
  name: Type.String({
    description: 'An allele name, a lower-resolution prefix, a group name or a deleted name. `*` and `:` may be percent-encoded.',
    examples: ['A*01:01:01:01'],
  }),
});

export const UsageQuery = Type.Object(
  {
    days: Type.Optional(
      Type.String({
        pattern: '^[0-9]{1,3}$',
        description: `Number of UTC days to report, today included (1–${MAX_USAGE_DAYS}); default 31.`,
      }),
    ),
  },
  { additionalProperties: false },
);

// ---------------------------------------------------------------------------------------------
// Responses

const release = Type.String({ description: 'Release the answer comes from, e.g. 3.65.0.', examples: ['3.65.0'] });
const attribution = Type.String({ description: 'Reference-data attribution line.' });
const Flags = Type.Array(Type.String(), { description: 'Flags, sorted.' });

export const ErrorBody = Type.Object({ detail: Type.String() }, { title: 'ErrorBody' });

const TokenVerdict = Type.Object(
  {
    token: Type.String(),
    status: Type.Union(TOKEN_STATUSES.map((status) => Type.Literal(status))),
    note: Type.String(),
    occurrences: Type.Integer({ minimum: 1 }),
    successor: Type.Optional(Type.String()),
    current_2field: Type.Optional(Type.String()),
    g_group: Type.Optional(Type.String()),
    flags: Type.Optional(Flags),
  },
  { additionalProperties: false },
);

export const VerifyResponse = Type.Object(
  {
    release,
    clean: Type.Boolean({ description: 'True only when no token is hallucinated, fabricated_group or deleted.' }),
    counts: Type.Object(
      Object.fromEntries(TOKEN_STATUSES.map((status) => [status, Type.Integer({ minimum: 0 })])),
      { additionalProperties: false },
    ),
    tokens: Type.Array(TokenVerdict, { description: 'One row per distinct token, sorted by token.' }),
    attribution,
  },
  { additionalProperties: false, title: 'VerifyResponse' },
);

const NormalizeRow = Type.Object(
  {
    reported: Type.String(),
    current_name: Type.String({ description: 'Current name, or UNRESOLVABLE.' }),
    allele_2field: Type.String(),
    g_group: Type.String({ description: 'A G group, AMBIGUOUS, NONE or UNRESOLVABLE.' }),
    flags: Flags,
  },
  { additionalProperties: false },
);

export const NormalizeResponse = Type.Object(
  { release, rows: Type.Array(NormalizeRow), attribution },
  { additionalProperties: false, title: 'NormalizeResponse' },
);

const lookupBase = {
  release,
  name: Type.String(),
  resolves_to: Type.Optional(Type.String({ description: 'Present when the input was rewritten.' })),
  flags: Type.Optional(Flags),
};

export const AlleleFacts = Type.Union(
  [
    Type.Object(
      {
        ...lookupBase,
        status: Type.Literal('assigned'),
        confirmed: Type.Union([Type.Boolean(), Type.Null()]),
        g_group: Type.String(),
        p_group: Type.Union([Type.String(), Type.Null()]),
        first_release: Type.Union([Type.String(), Type.Null()]),
        serology: Type.Object({}, { additionalProperties: Type.Array(Type.String()) }),
        null_allele: Type.Boolean(),
      },
      { additionalProperties: false },
    ),
    Type.Object(
      {
        ...lookupBase,
        status: Type.Literal('valid_prefix'),
        members_count: Type.Integer({ minimum: 0 }),
        members_sample: Type.Array(Type.String()),
      },
      { additionalProperties: false },
    ),
    Type.Object(
      {
        ...lookupBase,
        status: Type.Literal('group'),
        group_type: Type.Union([Type.Literal('G'), Type.Literal('P')]),
        members_count: Type.Integer({ minimum: 0 }),
        members_sample: Type.Array(Type.String()),
      },
      { additionalProperties: false },
    ),
    Type.Object(
      {
        ...lookupBase,
        status: Type.Literal('deleted'),
        successor: Type.Union([Type.String(), Type.Null()]),
        reason: Type.Union([Type.String(), Type.Null()]),
      },
      { additionalProperties: false },
    ),
    Type.Object(
      { ...lookupBase, status: Type.Literal('mac_code'), note: Type.String() },
      { additionalProperties: false },
    ),
  ],
  { title: 'AlleleFacts' },
);

export const MatchResponse = Type.Object(
  {
    release,
    framework: FrameworkSchema,
    count: Type.String({ description: '`<matched>/<denominator>`, or UNRESOLVABLE.', examples: ['7/8'] }),
    verdicts: Type.Object(
      {},
      {
        additionalProperties: Type.Union([Type.Literal('match'), Type.Literal('mismatch'), Type.Literal('potential')]),
        description: 'Locus → verdict, in framework order.',
      },
    ),
    hvg_mismatches: Type.Integer({ minimum: 0 }),
    gvh_mismatches: Type.Integer({ minimum: 0 }),
    flags: Flags,
    attribution,
  },
  { additionalProperties: false, title: 'MatchResponse' },
);

export const HealthResponse = Type.Object(
  {
    ok: Type.Boolean(),
    release,
    alleles: Type.Integer({ description: 'Named alleles in the release (46,652 in 3.65.0).' }),
    uptime_s: Type.Integer({ minimum: 0 }),
    missing_optional_files: Type.Array(Type.String(), {
      description: 'Optional release files that could not be had; the facts they feed are unknown.',
    }),
  },
  { additionalProperties: false, title: 'HealthResponse' },
);
export type HealthResponse = Static<typeof HealthResponse>;

export const UsageResponse = Type.Object(
  {
    release,
    label: Type.String({ description: 'Label of the calling key.' }),
    days: Type.Array(
      Type.Object(
        {
          date: Type.String({ description: 'UTC day, YYYY-MM-DD.' }),
          counts: Type.Object({}, { additionalProperties: Type.Integer({ minimum: 0 }) }),
        },
        { additionalProperties: false },
      ),
      { description: 'Newest first; days without calls are omitted.' },
    ),
    totals: Type.Object({}, { additionalProperties: Type.Integer({ minimum: 0 }) }),
  },
  { additionalProperties: false, title: 'UsageResponse' },
);
export type UsageResponse = Static<typeof UsageResponse>;

// ---------------------------------------------------------------------------------------------
// Checking a request: one compiled check per schema, one wording of failures for API and CLI.

export interface RequestCheck<T extends TSchema> {
  /** Returns the value typed, or throws `validationError` naming the first failing field. */
  (value: unknown): Static<T>;
}

/**
 * `root` names the part of the request in the detail: `body/text must be at most … characters`.
 * Details name fields and rules only, never the content sent.
 */
export function compileRequestCheck<T extends TSchema>(schema: T, root = 'body'): RequestCheck<T> {
  const check = TypeCompiler.Compile(schema);
  return (value: unknown) => {
    if (check.Check(value)) return value;
    throw validationError(describeFailure(check, value, root));
  };
}

function describeFailure(check: TypeCheck<TSchema>, value: unknown, root: string): string {
  const first = check.Errors(value).First();
  return first === undefined ? `${root} is not valid` : describeError(first, root);
}

/** Field names are shown only when they look like field names; anything else may be content. */
const SHOWABLE_SEGMENT = /^[A-Za-z0-9*_-]{1,20}$/;

function fieldPath(root: string, pointer: string): string {
  if (pointer === '') return root;
  const segments = pointer
    .slice(1)
    .split('/')
    .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((segment) => (SHOWABLE_SEGMENT.test(segment) ? segment : '<key>'));
  return `${root}/${segments.join('/')}`;
}

function parentPointer(pointer: string): string {
  return pointer.slice(0, Math.max(0, pointer.lastIndexOf('/')));
}

function describeError(error: ValueError, root: string): string {
  const schema = error.schema as Record<string, unknown>;
  const field = fieldPath(root, error.path);
  switch (error.type) {
    case ValueErrorType.ObjectRequiredProperty:
      return `${field} is required`;
    case ValueErrorType.ObjectAdditionalProperties: {
      const accepted = Object.keys((schema.properties ?? {}) as object);
      return `${fieldPath(root, parentPointer(error.path))} has a field that is not accepted (accepted: ${accepted.join(', ')})`;
    }
    case ValueErrorType.ObjectMaxProperties:
      return `${field} must have at most ${String(schema.maxProperties)} fields`;
    case ValueErrorType.Object:
      return `${field} must be a JSON object`;
    case ValueErrorType.Array:
      return `${field} must be an array`;
    case ValueErrorType.ArrayMaxItems:
      return `${field} must have at most ${String(schema.maxItems)} items`;
    case ValueErrorType.String:
      return `${field} must be a string`;
    case ValueErrorType.StringMaxLength:
      return `${field} must be at most ${String(schema.maxLength)} characters`;
    case ValueErrorType.StringPattern:
      return `${field} does not have the expected form`;
    case ValueErrorType.Union: {
      const options = literalOptions(schema);
      return options ? `${field} must be one of ${options.join(', ')}` : `${field} does not have an accepted type`;
    }
    default:
      // TypeBox messages describe the rule ("Expected boolean"), never the value.
      return `${field}: ${error.message.charAt(0).toLowerCase()}${error.message.slice(1)}`;
  }
}

function literalOptions(schema: Record<string, unknown>): string[] | null {
  const variants = schema.anyOf;
  if (!Array.isArray(variants)) return null;
  const values = variants.map((variant: { const?: unknown }) => variant.const);
  return values.every((value) => typeof value === 'string') ? (values as string[]) : null;
}

export const checkVerifyRequest = compileRequestCheck(VerifyRequest);
export const checkNormalizeRequest = compileRequestCheck(NormalizeRequest);
export const checkMatchRequest = compileRequestCheck(MatchRequest);
