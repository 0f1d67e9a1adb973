/**
 * Bearer authentication: `Authorization: <scheme> 1*SP <token>` (RFC 9110 §11.4), the scheme
 * `Bearer` matched case-insensitively (RFC 9110 §11.1), the token the API key. Only spaces separate
 * the two: a tab, a no-break space or any other whitespace is refused, so that the few spellings of
 * one key the service accepts are the ones the web ACL counts as one (infra/cdk/constructs/web-acl.ts).
 * Every failure is a 401 with a `WWW-Authenticate` challenge (RFC 6750). The message says what to
 * fix in the request, but never whether a key exists, was revoked or has expired. A failed key
 * lookup is not a 401: it propagates and becomes a 503.
 */
import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { isWellFormedApiKey } from '../auth/api-keys.ts';
import type { KeyVerifier } from '../auth/key-verifier.ts';
import { HttpError } from './errors.ts';
import { headerValues, type RequestHeaders } from './request-headers.ts';
import type { ApiResult } from './response.ts';

/** The authentication scheme, as the challenge and the messages spell it; matched in any case. */
export const BEARER_SCHEME = 'Bearer';

/** The challenge of every 401 (RFC 6750): the service's, and the web ACL's for a keyless request. */
export const BEARER_CHALLENGE = `${BEARER_SCHEME} realm="petstore"`;

/**
 * The longest Authorization value looked at: a valid one is 43 characters ("Bearer " and a
 * 36-character key), and 256 leaves room for any spacing.
 */
export const MAX_AUTHORIZATION_LENGTH = 256;

const HOW = `send the API key as "Authorization: ${BEARER_SCHEME} <API_KEY>"`;

function unauthorized(message: string, invalidToken = false): HttpError {
  const challenge = invalidToken ? `${BEARER_CHALLENGE}, error="invalid_token"` : BEARER_CHALLENGE;
  return new HttpError('unauthorized', message, { 'WWW-Authenticate': challenge });
}

/** SP or HTAB: the optional whitespace HTTP allows around a field value (RFC 9110 §5.5). */
const isOws = (c: string | undefined): boolean => c === ' ' || c === '\t';

/** Returns the bearer token of the request, or throws the 401 that explains what is wrong. */
export function bearerToken(event: RequestHeaders): string {
  const values = headerValues(event, 'authorization');
  // Refused rather than resolved: which of two keys a proxy or a framework keeps is anyone's guess.
  if (values.length > 1) {
    throw unauthorized(`${values.length} Authorization headers: send exactly one, as "Authorization: ${BEARER_SCHEME} <API_KEY>".`);
  }
  const raw = values[0] ?? '';
  if (raw.length > MAX_AUTHORIZATION_LENGTH) {
    throw unauthorized(`Authorization header longer than ${MAX_AUTHORIZATION_LENGTH} characters: ${HOW}.`);
  }
  // HTTP servers drop this whitespace before the value reaches a function; an event built by other
  // means may still carry it. Only SP and HTAB: not String.prototype.trim's Unicode whitespace.
  let start = 0;
  let end = raw.length;
  while (isOws(raw[start])) start++;
  while (end > start && isOws(raw[end - 1])) end--;
  const value = raw.slice(start, end);
  if (value === '') throw unauthorized(`Missing API key: send it as "Authorization: ${BEARER_SCHEME} <API_KEY>".`);

  const space = value.indexOf(' ');
  const scheme = space === -1 ? value : value.slice(0, space);
  if (scheme.toLowerCase() !== BEARER_SCHEME.toLowerCase()) {
    if (/^bearer\s/i.test(scheme)) {
      throw unauthorized(
        `Malformed Authorization header: separate "${BEARER_SCHEME}" from the API key with spaces only (no tab or other whitespace): ${HOW}.`,
      );
    }
    if (/^\s/.test(scheme)) {
      throw unauthorized(
        `Malformed Authorization header: it starts with whitespace other than a space (such as a no-break space): ${HOW}.`,
      );
    }
    if (isWellFormedApiKey(scheme)) throw unauthorized(`API key without its scheme: ${HOW}.`);
    throw unauthorized(`Unsupported authorization scheme: ${HOW}.`);
  }
  let tokenStart = scheme.length;
  while (value[tokenStart] === ' ') tokenStart++;
  const token = value.slice(tokenStart);
  if (token === '') throw unauthorized(`Empty bearer token: ${HOW}.`);
  if (/\s/.test(token)) {
    throw unauthorized(
      `Malformed bearer token: it contains whitespace (a space, a tab or a no-break space within or after the key): ${HOW}, with nothing after the key.`,
    );
  }
  return token;
}

/**
 * On success the caller's key id is put where a Lambda authorizer's principal would be,
 * `requestContext.authorizer.principalId`, for handlers that scope data to the caller and for the
 * access log.
 */
export function bearerAuth(verifier: () => KeyVerifier): MiddlewareObj<APIGatewayProxyEvent, ApiResult> {
  return {
    before: async (request) => {
      const token = bearerToken(request.event);
      const record = await verifier().verify(token);
      if (!record) throw unauthorized('Invalid API key: it is unknown, revoked or expired. Ask for a new key.', true);
      request.event.requestContext = { ...request.event.requestContext, authorizer: { principalId: record.keyId } };
    },
  };
}

/** The key id bearerAuth established for this request. */
export function callerId(event: Pick<APIGatewayProxyEvent, 'requestContext'>): string {
  const principal = authenticatedKeyId(event);
  if (principal === undefined) throw new Error('callerId() needs bearerAuth to have run');
  return principal;
}

/** The key id bearerAuth established, or undefined before it has (or when it refused the request). */
export function authenticatedKeyId(event: Pick<APIGatewayProxyEvent, 'requestContext'>): string | undefined {
  const principal: unknown = event.requestContext?.authorizer?.principalId;
  return typeof principal === 'string' ? principal : undefined;
}
