/**
 * The errors the gateway itself answers, before any function runs: an unknown path and a method the path does not allow.
 */
import { API_BASE_PATH, allowedMethods, resources } from '../routes.ts';
import { HttpError } from './errors.ts';

/** API Gateway's own payload limit: larger requests never reach a function. */
export const GATEWAY_MAX_BODY_BYTES = 10 * 1024 * 1024;
export const GATEWAY_TOO_LARGE_MESSAGE = `Request body exceeds the gateway limit of ${GATEWAY_MAX_BODY_BYTES} bytes.`;

export const NOT_FOUND_MESSAGE = `No such resource. The API serves ${resources.map((r) => API_BASE_PATH + r).join(' and ')}.`;

export function notFoundError(): HttpError {
  return new HttpError('not_found', NOT_FOUND_MESSAGE);
}

/** `path` as clients address it (`/v1/pets`), and the methods it allows. */
export function methodNotAllowedMessage(method: string, path: string, allowed: readonly string[]): string {
  return `Method ${method} is not allowed on ${path}. Allowed: ${allowed.join(', ')}.`;
}

/** `resource` as in the route table (`/pets`). */
export function methodNotAllowedError(method: string, resource: string): HttpError {
  const allowed = allowedMethods(resource);
  return new HttpError('method_not_allowed', methodNotAllowedMessage(method, API_BASE_PATH + resource, allowed), {
    Allow: allowed.join(', '),
  });
}
