/** Whose job it is, without storing who: see `ownerDigest`. */
import { createHmac } from 'node:crypto';
import type { Submitter } from './types.ts';

/**
 * The owner stored with a job: an HMAC of the caller keyed by the deployment's webhook secret, so
 * Redis holds neither key labels nor client IPs, and an IP cannot be recovered by trying them all.
 * `GET /v1/jobs/{id}` compares it with the caller's own digest.
 */
export function ownerDigest(submitter: Submitter, key: string): string {
  const identity = submitter.kind === 'key' ? `key\n${submitter.label}` : `ip\n${submitter.ip}`;
  return createHmac('sha256', key).update(identity).digest('base64url').slice(0, 32);
}
