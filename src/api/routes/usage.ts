/** GET /v1/usage: the calling key's own counts per operation and UTC day (keyed callers only). */
import type { FastifyPluginAsync } from 'fastify';
import { RequestError } from '../../errors.ts';
import { MAX_USAGE_DAYS, UsageQuery, UsageResponse, type UsageResponse as UsageBody } from '../../operations/schemas.ts';
import type { ApiContext } from '../context.ts';
import { errorResponses, V1_ERRORS, success } from '../openapi.ts';

const DEFAULT_DAYS = 31;

export const usageRoutes: FastifyPluginAsync<{ ctx: ApiContext }> = async (app, { ctx }) => {
  app.get<{ Querystring: { days?: string } }>(
    '/v1/usage',
    {
      schema: {
        tags: ['service'],
        summary: "The calling key's usage counts",
        description:
          'Counts of successful calls per operation and UTC day: counts only, never content. ' +
          'Anonymous callers have no usage report (401).',
        querystring: UsageQuery,
        response: { 200: success(UsageResponse, "The calling key's counts."), ...errorResponses(422, ...V1_ERRORS) },
      },
      config: { operation: false },
    },
    async (request): Promise<UsageBody> => {
      const caller = request.caller;
      if (caller.kind !== 'key') {
        throw new RequestError('unauthorized', 'Usage is reported per key: send X-API-Key or Authorization: Bearer');
      }
      const days = request.query.days === undefined ? DEFAULT_DAYS : Number(request.query.days);
      if (days < 1 || days > MAX_USAGE_DAYS) {
        throw new RequestError('validation', `querystring/days must be from 1 to ${MAX_USAGE_DAYS}`);
      }
      const usage = await ctx.meter.read(caller.label, days);
      const totals: Record<string, number> = {};
      for (const day of usage) {
        for (const [operation, count] of Object.entries(day.counts)) totals[operation] = (totals[operation] ?? 0) + count;
      }
      return { release: request.engine.release, label: caller.label, days: usage.map((d) => ({ ...d })), totals };
    },
  );
};
