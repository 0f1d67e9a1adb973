/**
 * Worker: the local API (infra/local/api-server.ts and the template-driven gateway: routing, API
 * Gateway proxy event, result back to HTTP) with BARE handlers that make the same single DynamoDB
 * call as the baseline (bare-calls.ts). Between the baseline and the full local API, it tells how
 * much of the difference is the local adapter (API Gateway's job on AWS) and how much the handler
 * chain (what Lambda runs).
 */
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { type LocalApi, startLocalApi } from '../../local/api-server.ts';
import { sourceStageApi } from '../../local/stage-api.ts';
import { operations } from '#lib/operations.ts';
import { bareCalls } from './bare-calls.ts';
import { serve } from './rpc.ts';

let api: LocalApi | undefined;

serve(
  {
    start: async (request) => {
      const answer = bareCalls(request.endpoint as string, request.petsTable as string);
      const handlers = Object.fromEntries(
        operations.map((operation) => [
          operation.functionId,
          async (event: APIGatewayProxyEvent) => ({ ...(await answer(operation, event)), headers: { 'Content-Type': 'application/json' } }),
        ]),
      );
      api = await startLocalApi({ api: (await sourceStageApi({ handlers })).api, port: 0 });
      return api.url;
    },
  },
  async () => api?.close(),
);
