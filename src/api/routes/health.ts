/**
 * GET /healthz: liveness and the pinned release; no key needed, never rate limited. A caller that
 * sends a valid key sees its own key's release (pins are per key); any other key is ignored here.
 */
import type { FastifyPluginAsync } from 'fastify';
import { healthOperation } from '../../operations/index.ts';
import { HealthResponse } from '../../operations/schemas.ts';
import { presentedKey } from '../callers.ts';
import type { ApiContext } from '../context.ts';
import { errorResponses, success } from '../openapi.ts';

export const healthRoutes: FastifyPluginAsync<{ ctx: ApiContext }> = async (app, { ctx }) => {
  app.get(
    '/healthz',
    {
      schema: {
        tags: ['service'],
        summary: 'Liveness and the pinned release',
        description: 'Used to assert that the pinned release has not moved. Needs no key.',
        security: [],
        response: { 200: success(HealthResponse, 'Alive, and the pinned release.'), ...errorResponses(500) },
      },
    },
    async (request) => {
      let engine = request.engine;
      try {
        const presented = presentedKey(request.headers);
        const caller = presented === undefined ? null : ctx.keyring?.identify(presented);
        if (caller) engine = ctx.engineOf(caller);
      } catch {
        // An unusable Authorization header does not fail a liveness probe.
      }
      return healthOperation(engine, process.uptime());
    },
  );
};
