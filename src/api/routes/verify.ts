/** POST /v1/verify: classify every allele-shaped token in free text. */
import type { FastifyPluginAsync } from 'fastify';
import { runVerify } from '../../operations/index.ts';
import { VerifyRequest, VerifyResponse } from '../../operations/schemas.ts';
import { errorResponses, JSON_BODY_ERRORS, V1_ERRORS, success } from '../openapi.ts';

export const verifyRoutes: FastifyPluginAsync = async (app) => {
  // The body was checked by the schema below (the app's validator compiler): run it as it is.
  app.post<{ Body: VerifyRequest }>(
    '/v1/verify',
    {
      schema: {
        tags: ['nomenclature'],
        summary: 'Verify the allele names in a text',
        description:
          'Every allele-shaped token gets a status. A fabricated or nonexistent name is a result ' +
          '(`hallucinated`, `fabricated_group`), never an error; `clean` is the usual gate.',
        body: VerifyRequest,
        response: { 200: success(VerifyResponse, 'A verdict for every allele-shaped token.'), ...errorResponses(...JSON_BODY_ERRORS, ...V1_ERRORS) },
      },
      config: { operation: 'verify' },
    },
    async (request) => runVerify(request.engine, request.body),
  );
};
