/**
 * Bulk CSV jobs (docs/bulk-jobs.md). Registered by the app factory as `jobsRoutes({ jobs })`, so
 * the /v1 hooks give these routes the same keys, limits, metering and error handling.
 *
 *   POST /v1/jobs/normalize?column=<name>[&column=…]&callback_url=<url>   body: the CSV
 *   POST /v1/jobs/match?callback_url=<url>[&framework=8/8]                 body: see below
 *   GET  /v1/jobs/{id}                                                     state, progress, times
 *
 * A CSV travels as the body (`Content-Type: text/csv`) or as the one file of a
 * multipart/form-data body. A donor search is multipart: a `recipient` part (JSON typing, as a
 * field or a file) and the donors CSV file; a `text/csv` body (or a multipart body without
 * `recipient`) is a pairs batch. The query parameters may also be sent as multipart fields.
 *
 * Submit answers 202 `{ job_id, status_url }`; the result goes to `callback_url`. A job is
 * visible only to the caller that submitted it (same key, or same IP when anonymous): others 404.
 */
import multipart from '@fastify/multipart';
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { Readable } from 'node:stream';
import { DEFAULT_TAG } from '../../reference/release-source.ts';
import { RequestError, validationError } from '../../errors.ts';
import { JOBS_DISABLED_DETAIL } from '../../jobs/disabled-service.ts';
import { matchSubmission, normalizeSubmission } from '../../jobs/submission.ts';
import { JOB_KINDS, JOB_STATES, type JobService, type JobSubmission, type Submitter } from '../../jobs/types.ts';
import { DEFAULT_FRAMEWORK, FRAMEWORKS } from '../../matching/types.ts';
import { ErrorBody } from '../../operations/schemas.ts';

export interface JobsRoutesOptions {
  readonly jobs: JobService;
}

/** Multipart framing and the small fields, on top of the CSV itself. */
const MULTIPART_OVERHEAD_BYTES = 256 * 1024;
const MAX_FIELD_BYTES = 64 * 1024;
const JOB_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const RETRY_AFTER_S = '5';

// ---- schemas: validation of the query, and the OpenAPI document ----

const StringOrList = Type.Union([Type.String(), Type.Array(Type.String())]);

const NormalizeQuery = Type.Object({
  column: Type.Optional(StringOrList),
  callback_url: Type.Optional(Type.String({ description: 'http(s) URL that receives the result CSV.' })),
});

const MatchQuery = Type.Object({
  callback_url: Type.Optional(Type.String({ description: 'http(s) URL that receives the result CSV.' })),
  framework: Type.Optional(Type.String({ description: `One of ${FRAMEWORKS.join(', ')}; default ${DEFAULT_FRAMEWORK}.` })),
  mode: Type.Optional(Type.String({ description: '`search` (recipient + donors CSV) or `pairs`; inferred when absent.' })),
});

const JobAccepted = Type.Object(
  { job_id: Type.String(), status_url: Type.String({ description: 'Path of GET /v1/jobs/{id}.' }) },
  { title: 'JobAccepted' },
);

const JobStatusSchema = Type.Object(
  {
    job_id: Type.String(),
    kind: Type.Union(JOB_KINDS.map((kind) => Type.Literal(kind))),
    state: Type.Union(JOB_STATES.map((state) => Type.Literal(state))),
    progress: Type.Object({ rows_done: Type.Integer(), rows_total: Type.Integer() }),
    row_errors: Type.Integer(),
    submitted_at: Type.String({ format: 'date-time' }),
    started_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    finished_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    failure_reason: Type.Optional(Type.String()),
  },
  { title: 'JobStatus' },
);

const SUBMIT_ERRORS = {
  401: { ...ErrorBody, description: 'Missing or unrecognized API key.' },
  413: { ...ErrorBody, description: 'CSV larger than HLA_SERVICE_JOB_MAX_BYTES.' },
  415: { ...ErrorBody, description: 'Body is neither text/csv nor multipart/form-data.' },
  422: { ...ErrorBody, description: 'Not a CSV, a missing column, a bad callback URL, framework or recipient.' },
  429: { ...ErrorBody, description: 'Rate limit exceeded.' },
  503: { ...ErrorBody, description: 'The job queue is unavailable (the synchronous endpoints are not affected).' },
};

// ---- the plugin ----

export const jobsRoutes: FastifyPluginAsync<JobsRoutesOptions> = async (app, { jobs }) => {
  const limit = jobs.maxBytes;
  if (jobs.mode === 'disabled') {
    // Before the body is read: there is nothing a caller can send that would be taken.
    app.addHook('onRequest', async (_request, reply) => {
      reply.header('retry-after', RETRY_AFTER_S);
      throw new RequestError('queue_unavailable', JOBS_DISABLED_DETAIL);
    });
  }
  await app.register(multipart, {
    limits: { fileSize: limit, files: 2, fields: 16, fieldSize: MAX_FIELD_BYTES, parts: 18 },
  });
  app.addContentTypeParser(['text/csv', 'application/csv'], async (request: FastifyRequest, payload: Readable) =>
    readBody(payload, limit, request.headers['content-length']),
  );
  // Any other type, JSON included (refused before a byte of it is read).
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('*', async () => {
    throw unsupportedMediaType();
  });

  app.post(
    '/v1/jobs/normalize',
    {
      schema: {
        tags: ['bulk jobs'],
        summary: 'Submit a CSV for bulk normalize',
        description:
          'Body: the CSV (`Content-Type: text/csv`) or multipart/form-data with the CSV as its file. Each `column` ' +
          'gains `<column>_current_name`, `<column>_allele_2field`, `<column>_g_group`, `<column>_flags`; every ' +
          'row also gets `error`. The result CSV is POSTed to `callback_url`, signed (Standard Webhooks).',
        querystring: NormalizeQuery,
        response: { 202: JobAccepted, ...SUBMIT_ERRORS },
      },
      config: { operation: 'jobs_normalize' },
    },
    async (request, reply) => {
      const query = request.query as { column?: string | string[]; callback_url?: string };
      const body = await csvBody(request, limit);
      const columns = [...list(query.column), ...(body.fields.get('column') ?? [])];
      const submission = await normalizeSubmission({
        csv: body.csv,
        columns,
        callbackUrl: query.callback_url ?? body.field('callback_url'),
        submitter: submitterOf(request),
        tag: tagOf(request),
        allowPrivateCallbacks: jobs.allowPrivateCallbacks,
      });
      return accept(jobs, submission, reply);
    },
  );

  app.post(
    '/v1/jobs/match',
    {
      schema: {
        tags: ['bulk jobs'],
        summary: 'Submit a donor search or a batch of pairs',
        description:
          'Donor search: multipart/form-data with a `recipient` part (JSON typing) and the donors CSV file (columns ' +
          '`<LOCUS>_<n>`, e.g. `A_1`, `A_2`). Pairs: a CSV (text/csv body or multipart file) with `recipient_<LOCUS>_<n>` ' +
          'and `donor_<LOCUS>_<n>` columns. The result CSV (ranked best first for a search) is POSTed to `callback_url`.',
        querystring: MatchQuery,
        response: { 202: JobAccepted, ...SUBMIT_ERRORS },
      },
      config: { operation: 'jobs_match' },
    },
    async (request, reply) => {
      const query = request.query as { callback_url?: string; framework?: string; mode?: string };
      const body = await csvBody(request, limit);
      const submission = await matchSubmission({
        csv: body.csv,
        recipientJson: body.recipient,
        framework: query.framework ?? body.field('framework'),
        mode: query.mode ?? body.field('mode'),
        callbackUrl: query.callback_url ?? body.field('callback_url'),
        submitter: submitterOf(request),
        tag: tagOf(request),
        allowPrivateCallbacks: jobs.allowPrivateCallbacks,
      });
      return accept(jobs, submission, reply);
    },
  );

  app.get(
    '/v1/jobs/:id',
    {
      schema: {
        tags: ['bulk jobs'],
        summary: 'State and progress of a job',
        description:
          'State (`queued`, `active`, `completed` = result delivered, `failed`), rows done / total and times; ' +
          'never content. Only the caller that submitted the job sees it; finished jobs stay visible for ' +
          'HLA_SERVICE_JOB_STATUS_TTL_S.',
        params: Type.Object({ id: Type.String() }),
        response: {
          200: JobStatusSchema,
          404: { ...ErrorBody, description: 'No such job for this caller (or it has expired).' },
          503: SUBMIT_ERRORS[503],
        },
      },
      config: { operation: false },
    },
    async (request, reply) => {
      const { id } = request.params as { id: string };
      if (!JOB_ID.test(id)) throw notFound();
      const status = await withRetryAfter(reply, jobs.status(id, submitterOf(request)));
      if (status === null) throw notFound();
      return status;
    },
  );
};

// ---- helpers ----

async function accept(jobs: JobService, submission: JobSubmission, reply: FastifyReply) {
  const { jobId } = await withRetryAfter(reply, jobs.submit(submission));
  const statusUrl = `/v1/jobs/${jobId}`;
  reply.code(202).header('location', statusUrl);
  return { job_id: jobId, status_url: statusUrl };
}

async function withRetryAfter<T>(reply: FastifyReply, work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (error instanceof RequestError && error.status === 503) reply.header('retry-after', RETRY_AFTER_S);
    throw error;
  }
}

function submitterOf(request: FastifyRequest): Submitter {
  const caller = (request as { caller?: FastifyRequest['caller'] }).caller;
  return caller?.kind === 'key' ? { kind: 'key', label: caller.label } : { kind: 'anonymous', ip: request.ip };
}

function tagOf(request: FastifyRequest): string {
  return (request as { engine?: FastifyRequest['engine'] }).engine?.tag ?? DEFAULT_TAG;
}

function list(value: string | string[] | undefined): string[] {
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
}

function notFound(): RequestError {
  return new RequestError('not_found', 'No such job for this caller (it may have expired)');
}

function unsupportedMediaType(): RequestError {
  return new RequestError(
    'unsupported_media_type',
    'Send the CSV as the body with Content-Type: text/csv, or as multipart/form-data',
  );
}

function tooLarge(limit: number): RequestError {
  return new RequestError('payload_too_large', `CSV larger than ${limit} bytes (HLA_SERVICE_JOB_MAX_BYTES)`);
}

/** A text/csv body, read up to `limit` bytes (413 beyond, before reading when Content-Length says so). */
async function readBody(payload: Readable, limit: number, contentLength: string | undefined): Promise<Buffer> {
  if (contentLength !== undefined && Number(contentLength) > limit) {
    payload.resume();
    throw tooLarge(limit);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of payload) {
    size += (chunk as Buffer).length;
    if (size > limit) {
      payload.resume();
      throw tooLarge(limit);
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks, size);
}

interface CsvBody {
  readonly csv: Buffer;
  /** The `recipient` part, as text (multipart only). */
  readonly recipient: string | undefined;
  readonly fields: ReadonlyMap<string, string[]>;
  field(name: string): string | undefined;
}

const ACCEPTED_FIELDS = new Set(['callback_url', 'column', 'framework', 'mode', 'recipient']);

async function csvBody(request: FastifyRequest, limit: number): Promise<CsvBody> {
  const fields = new Map<string, string[]>();
  const field = (name: string): string | undefined => fields.get(name)?.[0];
  if (Buffer.isBuffer(request.body)) {
    return { csv: request.body, recipient: undefined, fields, field };
  }
  if (!request.isMultipart()) {
    if (request.body === undefined || request.body === null) {
      throw validationError('body: send the CSV (Content-Type: text/csv) or a multipart/form-data upload');
    }
    throw unsupportedMediaType();
  }
  const declared = Number(request.headers['content-length'] ?? 0);
  if (declared > limit + MULTIPART_OVERHEAD_BYTES) throw tooLarge(limit);

  let csv: Buffer | null = null;
  let recipient: string | undefined;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        if (part.fieldname === 'recipient') {
          const bytes = await part.toBuffer();
          if (bytes.length > MAX_FIELD_BYTES) throw validationError(`recipient: larger than ${MAX_FIELD_BYTES} bytes`);
          recipient = bytes.toString('utf8');
        } else if (csv !== null) {
          throw validationError('multipart: send one CSV file per job');
        } else {
          csv = await part.toBuffer();
        }
        continue;
      }
      if (!ACCEPTED_FIELDS.has(part.fieldname)) {
        throw validationError(`multipart: unknown field; the fields are ${[...ACCEPTED_FIELDS].join(', ')} and the CSV file`);
      }
      if (part.valueTruncated) throw validationError(`${part.fieldname}: larger than ${MAX_FIELD_BYTES} bytes`);
      const value = String(part.value);
      if (part.fieldname === 'recipient') recipient = value;
      else fields.set(part.fieldname, [...(fields.get(part.fieldname) ?? []), value]);
    }
  } catch (error) {
    throw multipartError(error, limit);
  }
  if (csv === null) throw validationError('multipart: no CSV file; attach it as a file part (e.g. curl -F file=@data.csv)');
  return { csv, recipient, fields, field };
}

function multipartError(error: unknown, limit: number): RequestError {
  if (error instanceof RequestError) return error;
  const code = (error as { code?: unknown }).code;
  if (code === 'FST_REQ_FILE_TOO_LARGE') return tooLarge(limit);
  if (code === 'FST_FILES_LIMIT' || code === 'FST_FIELDS_LIMIT' || code === 'FST_PARTS_LIMIT') {
    return validationError('multipart: too many parts; send one CSV file and the documented fields');
  }
  return validationError('multipart: the body could not be read as multipart/form-data');
}
