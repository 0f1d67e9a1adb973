/** `Authorization: Bearer 1*SP <key>` (RFC 9110 §11.4). */
import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { isWellFormedApiKey } from '../auth/api-keys.ts';
import type { KeyVerifier } from '../auth/key-verifier.ts';
import { HttpError } from './errors.ts';
import { headerValues, type RequestHeaders } from './request-headers.ts';
import type { ApiResult } from './response.ts';

export const BEARER_SCHEME = 'Bearer';

// The service's and the web ACL's (RFC 6750).
export const BEARER_CHALLENGE = `${BEARER_SCHEME} realm="petstore"`;

// A valid value is 43 characters; 256 leaves room for any spacing.
export const MAX_AUTHORIZATION_LENGTH = 256;

const HOW = `send the API key as "Authorization: ${BEARER_SCHEME} <API_KEY>"`;

function unauthorized(message: string, invalidToken = false): HttpError {
  const challenge = invalidToken ? `${BEARER_CHALLENGE}, error="invalid_token"` : BEARER_CHALLENGE;
  return new HttpError('unauthorized', message, { 'WWW-Authenticate': challenge });
}

// RFC 9110 §5.5: not String.prototype.trim's Unicode whitespace.
const isOws = (c: string | undefined): boolean => c === ' ' || c === '\t';

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

// The caller's key id goes where a Lambda authorizer's principal would be.
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

export function callerId(event: Pick<APIGatewayProxyEvent, 'requestContext'>): string {
  const principal = authenticatedKeyId(event);
  if (principal === undefined) throw new Error('callerId() needs bearerAuth to have run');
  return principal;
}

export function authenticatedKeyId(event: Pick<APIGatewayProxyEvent, 'requestContext'>): string | undefined {
  const principal: unknown = event.requestContext?.authorizer?.principalId;
  return typeof principal === 'string' ? principal : undefined;
}
