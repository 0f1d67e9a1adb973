// A mock cannot compute a header, so origin i picks mock status 201 + i, whose response names it statically (docs/cors.md).
import { CORS_ALLOWED_HEADERS, CORS_EXPOSED_HEADERS, CORS_MAX_AGE_SECONDS } from '#lib/http/cors.ts';

// stages.ts caps the list at 99.
export const originStatus = (index: number): string => String(201 + index);

// Both spellings: HTTP/2 clients send the header lower-case.
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

export function allowedOriginHeaders(origin: string): Record<string, string> {
  return { 'Access-Control-Allow-Origin': origin, 'Access-Control-Expose-Headers': CORS_EXPOSED_HEADERS, Vary: 'Origin' };
}

export function preflightHeaders(origin: string, methods: readonly string[]): Record<string, string> {
  return {
    'Access-Control-Allow-Origin': origin,
    'Access-Control-Allow-Methods': [...methods, 'OPTIONS'].join(', '),
    'Access-Control-Allow-Headers': CORS_ALLOWED_HEADERS,
    'Access-Control-Max-Age': String(CORS_MAX_AGE_SECONDS),
    Vary: 'Origin',
  };
}
