/** POST /v1/match: donor–recipient verdict under rules R1–R6 (src/matching). */
import type { FastifyPluginAsync } from 'fastify';
import { runMatch } from '../../operations/index.ts';
import { MatchRequest, MatchResponse } from '../../operations/schemas.ts';
import { errorResponses, JSON_BODY_ERRORS, V1_ERRORS, success } from '../openapi.ts';

export const matchRoutes: FastifyPluginAsync = async (app) => {
  // The body was checked by the schema below (the app's validator compiler): run it as it is.
  app.post<{ Body: MatchRequest }>(
    '/v1/match',
    {
      schema: {
        tags: ['matching'],
        summary: 'Match a donor to a recipient',
        description:
          'Mismatches are counted per chromosome and reported per direction (HvG, GvH). A locus ' +
          'typed too coarsely to call is `potential` and left out of `count`. Frameworks: 6/6 ' +
          '(A, B antigen; DRB1 allele), 8/8 (A, B, C, DRB1), 10/10 (+DQB1), 12/12 (+DPB1), antigen ' +
          '(A, B, C, DRB1, DQB1 at antigen level). Other loci in a typing are ignored.',
        body: MatchRequest,
        response: { 200: success(MatchResponse, 'The match verdict.'), ...errorResponses(...JSON_BODY_ERRORS, ...V1_ERRORS) },
      },
      config: { operation: 'match' },
    },
    async (request) => runMatch(request.engine, request.body),
  );
};
