/**
 * CORS answered by the gateway itself, for the origins a stage allows (`allowedOrigins`). A mock
 * integration cannot compute a header, but its request template can pick the mock's status, and
 * the status picks the integration response: origin i gets status 201 + i, whose integration
 * response names that origin in a static `Access-Control-Allow-Origin`. Any other origin, or none,
 * falls through to the default response, which carries no CORS header. Only documented API Gateway
 * features: `$input.params` in a request template, selection patterns, static header mappings.
 */
import { CORS_ALLOWED_HEADERS, CORS_EXPOSED_HEADERS, CORS_MAX_AGE_SECONDS } from '#lib/http/cors.ts';

/** The mock status that stands for the i-th allowed origin (stages.ts caps the list at 99). */
export const originStatus = (index: number): string => String(201 + index);

/**
 * A request template that gives the mock status 201 + i for the i-th allowed origin, 200 for any
 * other. The header is read under both spellings: HTTP/2 clients send it lower-case.
 */
export function originSelectingTemplate(origins: readonly string[]): string {
  const branches = origins.map(
    (origin, i) => `#${i === 0 ? 'if' : 'elseif'}($origin == "${origin}")\n{"statusCode": ${originStatus(i)}}\n`,
  );
  return [
    "#set($origin = $input.params('Origin'))",
    '#if("$!origin" == "")#set($origin = $input.params(\'origin\'))#end',
    `${branches.join('')}#else\n{"statusCode": 200}\n#end`,
  ].join('\n');
}

/** Headers of an answer to an allowed origin's actual request. */
export function allowedOriginHeaders(origin: string): Record<string, string> {
  return { 'Access-Control-Allow-Origin': origin, 'Access-Control-Expose-Headers': CORS_EXPOSED_HEADERS, Vary: 'Origin' };
}

/** Headers of a preflight answer to an allowed origin. */
export function preflightHeaders(origin: string, methods: readonly string[]): Record<string, string> {
  return {
    'Access-Control-Allow-Origin': origin,
    'Access-Control-Allow-Methods': [...methods, 'OPTIONS'].join(', '),
    'Access-Control-Allow-Headers': CORS_ALLOWED_HEADERS,
    'Access-Control-Max-Age': String(CORS_MAX_AGE_SECONDS),
    Vary: 'Origin',
  };
}
