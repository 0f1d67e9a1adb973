/**
 * The middleware chain every operation shares, outermost first:
 *   accessLog      request id, common headers and one log line, on every response;
 *   cors           (a stage with allowedOrigins) CORS headers for an allowed Origin, on every response;
 *   deprecation    (deprecated routes) Deprecation, Sunset and successor Link headers;
 *   errorResponder every error becomes the spec's Error body (see error-responder.ts);
 *   bearerAuth     401 unless the request carries a usable API key;
 *   jsonBody       (operations with a body) 400/413/415 unless it is a JSON object.
 * Handlers then only validate, make one store call and respond.
 */
import middy from '@middy/core';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { type Route, routeFor } from '../routes.ts';
import { services } from '../services.ts';
import { accessLog } from './access-log.ts';
import { bearerAuth } from './bearer-auth.ts';
import { cors } from './cors.ts';
import { deprecation } from './deprecation.ts';
import { errorResponder } from './error-responder.ts';
import { type JsonBodyEvent, jsonBody } from './json-body.ts';
import type { ApiResult } from './response.ts';

export type ApiEvent = APIGatewayProxyEvent;

function baseChain(operationId: Route['operationId']) {
  const { sunset, successor } = routeFor(operationId);
  const chain = middy<APIGatewayProxyEvent, ApiResult>().use(accessLog(operationId)).use(cors());
  if (sunset && successor) chain.use(deprecation({ sunset, successor }));
  return chain.use(errorResponder()).use(bearerAuth(() => services().keys));
}

/** An operation without a request body. */
export function apiHandler(operationId: Route['operationId'], run: (event: ApiEvent) => Promise<ApiResult>) {
  return baseChain(operationId).handler(run);
}

/** An operation whose request body must be a JSON object; `run` receives it parsed. */
export function jsonApiHandler(operationId: Route['operationId'], run: (event: JsonBodyEvent) => Promise<ApiResult>) {
  // jsonBody() has replaced the string body with the parsed object by the time `run` is called.
  return baseChain(operationId)
    .use(jsonBody())
    .handler((event) => run(event as unknown as JsonBodyEvent));
}
