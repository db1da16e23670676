/** POST /v1/normalize: resolve reported typings of any era to current names. */
import type { FastifyPluginAsync } from 'fastify';
import { runNormalize } from '../../operations/index.ts';
import { NormalizeRequest, NormalizeResponse } from '../../operations/schemas.ts';
import { errorResponses, JSON_BODY_ERRORS, V1_ERRORS, success } from '../openapi.ts';

export const normalizeRoutes: FastifyPluginAsync = async (app) => {
  // The body was checked by the schema below (the app's validator compiler): run it as it is.
  app.post<{ Body: NormalizeRequest }>(
    '/v1/normalize',
    {
      schema: {
        tags: ['nomenclature'],
        summary: 'Normalize reported typings',
        description:
          'One row per input string, in input order. Unresolvable input yields `current_name` ' +
          '`UNRESOLVABLE`; the service does not guess.',
        body: NormalizeRequest,
        response: { 200: success(NormalizeResponse, 'One row per typing, in input order.'), ...errorResponses(...JSON_BODY_ERRORS, ...V1_ERRORS) },
      },
      config: { operation: 'normalize' },
    },
    async (request) => runNormalize(request.engine, request.body),
  );
};
