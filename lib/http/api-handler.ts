/**
 * The middleware chain every operation shares, outermost first:
 *   accessLog      request id, common headers and one log line, on every response;
 *   cors           (a stage with allowedOrigins) CORS headers for an allowed Origin, on every response;
 *   deprecation    (deprecated routes) Deprecation, Sunset and successor Link headers;
 *   errorResponder every error becomes the spec's Error body (see error-responder.ts);
 *   bearerAuth     401 unless the request carries a usable API key;
 *   jsonBody       (operations with a body) 400/413/415 unless it is a JSON object.
 * Handlers then only validate, make one store call and respond.
 *
 * A read-only operation (GET) whose key is not cached starts its handler while the key is looked
 * up, instead of after: a cold or key-cache-missing request costs one store round trip, not two. The
 * result is used only once the key is valid; with a bad key it is dropped (one wasted read per
 * uncached bad key, which the key cache, its negative entries included, and the stage throttle bound).
 * Such handlers must not read the caller (`callerId`), which is not established yet when they start.
 */
import middy from '@middy/core';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { type Route, routeFor } from '../routes.ts';
import { prepareServices, services } from '../services.ts';
import { accessLog } from './access-log.ts';
import { bearerAuth } from './bearer-auth.ts';
import { cors } from './cors.ts';
import { deprecation } from './deprecation.ts';
import { errorResponder } from './error-responder.ts';
import { type JsonBodyEvent, jsonBody } from './json-body.ts';
import type { ApiResult } from './response.ts';

export type ApiEvent = APIGatewayProxyEvent;

function baseChain(operationId: Route['operationId'], whileLookingUp?: (event: ApiEvent) => void) {
  const { sunset, successor } = routeFor(operationId);
  const chain = middy<APIGatewayProxyEvent, ApiResult>().use(accessLog(operationId)).use(cors());
  if (sunset && successor) chain.use(deprecation({ sunset, successor }));
  return chain.use(errorResponder()).use(bearerAuth(() => services().keys, { whileLookingUp }));
}

/** An operation without a request body. */
export function apiHandler(operationId: Route['operationId'], run: (event: ApiEvent) => Promise<ApiResult>) {
  prepareServices();
  if (routeFor(operationId).method !== 'GET') return baseChain(operationId).handler(run);
  const started = new WeakMap<ApiEvent, Promise<ApiResult>>();
  const startEarly = (event: ApiEvent): void => {
    const result = run(event);
    // Awaited by the handler below once the key is valid; otherwise dropped, and so is its error.
    result.catch(() => undefined);
    started.set(event, result);
  };
  return baseChain(operationId, startEarly).handler((event) => started.get(event) ?? run(event));
}

/** An operation whose request body must be a JSON object; `run` receives it parsed. */
export function jsonApiHandler(operationId: Route['operationId'], run: (event: JsonBodyEvent) => Promise<ApiResult>) {
  prepareServices();
  // jsonBody() has replaced the string body with the parsed object by the time `run` is called.
  return baseChain(operationId)
    .use(jsonBody())
    .handler((event) => run(event as unknown as JsonBodyEvent));
}
