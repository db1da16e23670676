/** Bulk jobs without a signing secret: the endpoints exist and say why they cannot take a job. */
import { RequestError } from '../errors.ts';
import type { JobsConfig } from './config.ts';
import type { JobService, JobStatus, SubmitReceipt } from './types.ts';

export const JOBS_DISABLED_DETAIL =
  'Bulk jobs are disabled on this deployment (HLA_SERVICE_WEBHOOK_SECRET is not set); the synchronous endpoints work.';

export class DisabledJobService implements JobService {
  readonly mode = 'disabled' as const;
  readonly maxBytes: number;
  readonly allowPrivateCallbacks: boolean;

  constructor(config: JobsConfig) {
    this.maxBytes = config.maxBytes;
    this.allowPrivateCallbacks = config.allowPrivateCallbacks;
  }

  async submit(): Promise<SubmitReceipt> {
    throw new RequestError('queue_unavailable', JOBS_DISABLED_DETAIL);
  }

  async status(): Promise<JobStatus | null> {
    throw new RequestError('queue_unavailable', JOBS_DISABLED_DETAIL);
  }

  async close(): Promise<void> {}
}
