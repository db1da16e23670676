/**
 * The five operations as plain functions of (engine, input) → response body. The API routes and
 * the CLI both call these, so an HTTP body and the CLI's output are the same JSON, and a bad input
 * fails with the same `RequestError` (status + detail) in both.
 */
import { RequestError } from '../errors.ts';
import { match } from '../matching/index.ts';
import type { MatchResponse } from '../matching/types.ts';
import type { Engine } from '../nomenclature/engine-types.ts';
import type { AlleleFacts, NormalizeResponse, VerifyResponse } from '../nomenclature/types.ts';
import {
  checkMatchRequest,
  checkNormalizeRequest,
  checkVerifyRequest,
  type HealthResponse,
  type MatchRequest,
  type NormalizeRequest,
  type VerifyRequest,
} from './schemas.ts';

/*
 * Each body operation comes in two forms: `xOperation(engine, body: unknown)` checks the body and
 * runs; `runX(engine, request)` runs a body already checked with the same compiled schema check
 * (the API's validator compiler is that check), so the API does not check a body twice.
 */

/** POST /v1/verify: `{ text }` → a verdict for every allele-shaped token. */
export function verifyOperation(engine: Engine, body: unknown): VerifyResponse {
  return runVerify(engine, checkVerifyRequest(body));
}

export function runVerify(engine: Engine, request: VerifyRequest): VerifyResponse {
  return engine.verify(request.text);
}

/** POST /v1/normalize: `{ typings }` → one row per typing. */
export function normalizeOperation(engine: Engine, body: unknown): NormalizeResponse {
  return runNormalize(engine, checkNormalizeRequest(body));
}

export function runNormalize(engine: Engine, request: NormalizeRequest): NormalizeResponse {
  return engine.normalize(request.typings);
}

/** GET /v1/allele/{name}: facts for one name; the only operation where an unknown name is an error. */
export function alleleOperation(engine: Engine, name: string): AlleleFacts {
  const result = engine.lookup(name);
  if (!result.found) throw new RequestError('not_found', result.detail);
  return result.facts;
}

/** POST /v1/match: donor–recipient verdict (rules R1–R6 live in src/matching). */
export function matchOperation(engine: Engine, body: unknown): MatchResponse {
  return runMatch(engine, checkMatchRequest(body));
}

/**
 * The schema check gives the shape errors their common wording; the matcher still checks what a
 * schema cannot say (locus spelling, a locus given twice).
 */
export function runMatch(engine: Engine, request: MatchRequest): MatchResponse {
  return match(engine, request);
}

/** GET /healthz: liveness and the release this process (or this key) is pinned to. */
export function healthOperation(engine: Engine, uptimeSeconds: number): HealthResponse {
  return {
    ok: true,
    release: engine.release,
    alleles: engine.alleleCount,
    uptime_s: Math.max(0, Math.floor(uptimeSeconds)),
    missing_optional_files: [...engine.missingOptional],
  };
}

