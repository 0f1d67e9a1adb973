/**
 * Bearer authentication: `Authorization: Bearer <API_KEY>`, the scheme matched
 * case-insensitively (RFC 9110 §11.1). Every failure is a 401 with a `WWW-Authenticate` challenge
 * (RFC 6750). The message says what to fix in the request, but never whether a key exists, was
 * revoked or has expired. A failed key lookup is not a 401: it propagates and becomes a 503.
 */
import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import type { KeyVerifier } from '../auth/key-verifier.ts';
import { HttpError } from './errors.ts';
import { type ApiResult, headerValues, type RequestHeaders } from './response.ts';

const CREDENTIALS = /^([A-Za-z][A-Za-z0-9!#$%&'*+.^_`|~-]*)(?:[ \t]+(.*))?$/;

/**
 * The longest Authorization value looked at: a valid one is 43 characters ("Bearer " and a
 * 36-character key), and 256 leaves room for any spacing. Checked before CREDENTIALS runs, which
 * backtracks quadratically on a run of spaces followed by a line terminator: the bound keeps that
 * CPU small, whatever a client sends.
 */
export const MAX_AUTHORIZATION_LENGTH = 256;

function unauthorized(message: string, invalidToken = false): HttpError {
  const challenge = invalidToken ? 'Bearer realm="petstore", error="invalid_token"' : 'Bearer realm="petstore"';
  return new HttpError('unauthorized', message, { 'WWW-Authenticate': challenge });
}

/** Returns the bearer token of the request, or throws the 401 that explains what is wrong. */
export function bearerToken(event: RequestHeaders): string {
  const values = headerValues(event, 'authorization');
  // Refused rather than resolved: which of two keys a proxy or a framework keeps is anyone's guess.
  if (values.length > 1) {
    throw unauthorized(`${values.length} Authorization headers: send exactly one, as "Authorization: Bearer <API_KEY>".`);
  }
  const value = values[0];
  if (value !== undefined && value.length > MAX_AUTHORIZATION_LENGTH) {
    throw unauthorized(
      `Authorization header longer than ${MAX_AUTHORIZATION_LENGTH} characters: send the API key as "Authorization: Bearer <API_KEY>".`,
    );
  }
  if (value === undefined || value.trim() === '') {
    throw unauthorized('Missing API key: send it as "Authorization: Bearer <API_KEY>".');
  }
  const match = CREDENTIALS.exec(value.trim());
  if (match?.[1]?.toLowerCase() !== 'bearer') {
    throw unauthorized('Unsupported authorization scheme: send the API key as "Authorization: Bearer <API_KEY>".');
  }
  const token = match[2]?.trim() ?? '';
  if (token === '') {
    throw unauthorized('Empty bearer token: send the API key as "Authorization: Bearer <API_KEY>".');
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
