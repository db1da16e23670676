/**
 * From the pieces of a submit request to a checked `JobSubmission`: every 422 of the bulk
 * endpoints is raised here, before anything is queued — callback URL, CSV text and header, typing
 * columns, framework, recipient. Details name the field or column, never the content.
 */
import { validationError } from '../errors.ts';
import { isFramework } from '../matching/index.ts';
import { DEFAULT_FRAMEWORK, FRAMEWORKS, type Framework, type Typing } from '../matching/types.ts';
import { checkCallbackUrl } from './callback-url.ts';
import { CsvInput, estimateRows } from './csv-input.ts';
import { planJob } from './processor.ts';
import type { JobSpec, JobSubmission, MatchMode, Submitter } from './types.ts';

interface Common {
  readonly csv: Buffer;
  readonly callbackUrl: unknown;
  readonly submitter: Submitter;
  /** Release tag of the submitting caller (its key's pin, or the default). */
  readonly tag: string;
  readonly allowPrivateCallbacks: boolean;
}

export interface NormalizeParts extends Common {
  readonly columns: readonly string[];
}

export interface MatchParts extends Common {
  readonly framework: unknown;
  /** Donor search: the recipient typing, as JSON text; undefined for pairs mode. */
  readonly recipientJson: string | undefined;
  /** `mode` as the caller gave it, if at all. */
  readonly mode: unknown;
}

export async function normalizeSubmission(parts: NormalizeParts): Promise<JobSubmission> {
  const spec: JobSpec = { kind: 'normalize', tag: parts.tag, columns: parts.columns.map((column) => column.trim()) };
  return submission(parts, spec, undefined);
}

export async function matchSubmission(parts: MatchParts): Promise<JobSubmission> {
  const framework = frameworkOf(parts.framework);
  const mode = modeOf(parts.mode, parts.recipientJson !== undefined);
  let recipient: Typing | undefined;
  if (mode === 'search') {
    if (parts.recipientJson === undefined) throw validationError('recipient: required for a donor search (a JSON typing)');
    try {
      recipient = JSON.parse(parts.recipientJson) as Typing;
    } catch {
      throw validationError('recipient: not valid JSON; send an object of locus → list of allele names');
    }
  } else if (parts.recipientJson !== undefined) {
    throw validationError('recipient: not used in pairs mode (each row carries both typings)');
  }
  return submission(parts, { kind: 'match', tag: parts.tag, mode, framework }, recipient);
}

async function submission(parts: Common, spec: JobSpec, recipient: Typing | undefined): Promise<JobSubmission> {
  const url = await checkCallbackUrl(parts.callbackUrl, parts.allowPrivateCallbacks);
  const header = CsvInput.headerOf(parts.csv);
  planJob(spec, header, { recipient });
  return {
    spec,
    callbackUrl: url.href,
    submitter: parts.submitter,
    input: { csv: parts.csv, recipient },
    rowsEstimate: estimateRows(parts.csv),
  };
}

function frameworkOf(value: unknown): Framework {
  if (value === undefined || value === '') return DEFAULT_FRAMEWORK;
  if (isFramework(value)) return value;
  throw validationError(`framework: must be one of ${FRAMEWORKS.join(', ')} (default ${DEFAULT_FRAMEWORK})`);
}

function modeOf(value: unknown, hasRecipient: boolean): MatchMode {
  if (value === undefined || value === '') return hasRecipient ? 'search' : 'pairs';
  if (value === 'search' || value === 'pairs') return value;
  throw validationError('mode: must be search (a recipient against a donors CSV) or pairs (both typings on each row)');
}
