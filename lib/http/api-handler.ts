/**
 * The middleware chain every operation shares, outermost first:
 *   requestLine    request id, common headers and one log line, on every response;
 *   cors           (a stage with allowedOrigins) CORS headers for an allowed Origin, on every response;
 *   deprecation    (deprecated operations) Deprecation, Sunset and successor Link headers;
 *   errorResponder every error becomes the spec's Error body (see error-responder.ts);
 *   bearerAuth     401 unless the request carries a usable API key;
 *   jsonBody       (operations with a body, passed as `inner`) 400/413/415 unless it is a JSON object.
 * Handlers then validate, make one store call and respond, in that order.
 *
 * Handlers get middy's `signal`, aborted when the function is about to time out: a read passes it
 * to the store so that nothing keeps running once the 503 has been sent.
 */
import middy, { type MiddlewareObj, type MiddyfiedHandler } from '@middy/core';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import type { Operation } from '../operations/operation.ts';
import { config, prepareServices, services } from '../services.ts';
import { requestLine } from './request-line.ts';
import { bearerAuth } from './bearer-auth.ts';
import { cors } from './cors.ts';
import { deprecation } from './deprecation.ts';
import { errorResponder } from './error-responder.ts';
import type { ApiResult } from './response.ts';

export interface HandlerOptions {
  /** Aborted when the function is about to time out; reads pass it to the store. */
  readonly signal: AbortSignal;
}

/**
 * The shared chain of `operation` (its descriptor), then the `inner` middlewares, for a handler
 * that receives `TEvent`: API Gateway's event, or the event as an inner middleware leaves it
 * (jsonBody(): a JsonBodyEvent, its body parsed). The shared middlewares never read the body.
 */
export function apiChain<TEvent extends Omit<APIGatewayProxyEvent, 'body'> = APIGatewayProxyEvent>(
  operation: Operation,
  ...inner: MiddlewareObj<APIGatewayProxyEvent, ApiResult>[]
): MiddyfiedHandler<TEvent, ApiResult> {
  prepareServices();
  const chain = middy<TEvent, ApiResult>();
  chain.use(requestLine(operation.operationId, () => config().rateLimitHeaders)).use(cors(() => config().allowedOrigins));
  if (operation.deprecation) chain.use(deprecation(operation.deprecation));
  chain.use(errorResponder()).use(bearerAuth(() => services().keys));
  for (const middleware of inner) chain.use(middleware);
  return chain;
}

/** An operation without a request body. */
export function apiHandler(operation: Operation, run: (event: APIGatewayProxyEvent, options: HandlerOptions) => Promise<ApiResult>) {
  return apiChain(operation).handler((event, _context, { signal }) => run(event, { signal }));
}
