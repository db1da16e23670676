/**
 * GET /v1/allele/{name}: facts for one name. `*` and `:` may be sent as they are or
 * percent-encoded (`A%2A02%3A01`); the router decodes the parameter either way.
 */
import type { FastifyPluginAsync } from 'fastify';
import { alleleOperation } from '../../operations/index.ts';
import { AlleleFacts, AlleleParams } from '../../operations/schemas.ts';
import { errorResponses, V1_ERRORS, success } from '../openapi.ts';

export const alleleRoutes: FastifyPluginAsync = async (app) => {
  app.get<{ Params: { name: string } }>(
    '/v1/allele/:name',
    {
      schema: {
        tags: ['nomenclature'],
        summary: 'Look up one allele name',
        description:
          'Facts for an assigned name, a lower-resolution prefix, a group name or a deleted name. ' +
          'The only operation for which an unknown name is an error (404).',
        params: AlleleParams,
        response: { 200: success(AlleleFacts, 'Facts for the name.'), ...errorResponses(404, ...V1_ERRORS) },
      },
      config: { operation: 'allele' },
    },
    async (request) => alleleOperation(request.engine, request.params.name),
  );
};
