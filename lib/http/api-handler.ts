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
 * result is used only once the key is valid; with a bad key, or when the lookup fails, the read is
 * aborted (at most one read per uncached bad key, which the key cache, its negative entries
 * included, and the stage throttle bound; never its retries, which would otherwise outlive the
 * response and, on Lambda, wake up in a later invocation). Such handlers must not read the caller
 * (`callerId`), which is not established yet when they start.
 *
 * Handlers get middy's `signal`, aborted when the function is about to time out: a read passes it
 * to the store so that nothing keeps running once the 503 has been sent.
 */
import middy, { type MiddlewareObj } from '@middy/core';
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

export interface HandlerOptions {
  /** Aborted when the handler's answer is no longer wanted; reads pass it to the store. */
  readonly signal: AbortSignal;
}

function baseChain(operationId: Route['operationId'], whileLookingUp?: (event: ApiEvent) => void) {
  const { sunset, successor } = routeFor(operationId);
  const chain = middy<APIGatewayProxyEvent, ApiResult>().use(accessLog(operationId)).use(cors());
  if (sunset && successor) chain.use(deprecation({ sunset, successor }));
  return chain.use(errorResponder()).use(bearerAuth(() => services().keys, { whileLookingUp }));
}

/** An operation without a request body. */
export function apiHandler(operationId: Route['operationId'], run: (event: ApiEvent, options: HandlerOptions) => Promise<ApiResult>) {
  prepareServices();
  if (routeFor(operationId).method !== 'GET')
    return baseChain(operationId).handler((event, _context, { signal }) => run(event, { signal }));
  const started = new WeakMap<ApiEvent, { readonly result: Promise<ApiResult>; readonly controller: AbortController }>();
  const startEarly = (event: ApiEvent): void => {
    const controller = new AbortController();
    const result = run(event, { signal: controller.signal });
    // Awaited by the handler below once the key is valid; otherwise aborted, and its error dropped.
    result.catch(() => undefined);
    started.set(event, { result, controller });
  };
  // Its onError runs before the error responder's: an error before the handler (a bad key, a
  // failed lookup) means the early read's answer will never be used.
  const abortUnusedRead: MiddlewareObj<ApiEvent, ApiResult> = { onError: (request) => started.get(request.event)?.controller.abort() };
  return baseChain(operationId, startEarly)
    .use(abortUnusedRead)
    .handler((event, _context, { signal }) => {
      const early = started.get(event);
      if (!early) return run(event, { signal });
      signal.addEventListener('abort', () => early.controller.abort(), { once: true });
      return early.result;
    });
}

/** An operation whose request body must be a JSON object; `run` receives it parsed. */
export function jsonApiHandler(operationId: Route['operationId'], run: (event: JsonBodyEvent) => Promise<ApiResult>) {
  prepareServices();
  // jsonBody() has replaced the string body with the parsed object by the time `run` is called.
  return baseChain(operationId)
    .use(jsonBody())
    .handler((event) => run(event as unknown as JsonBodyEvent));
}
