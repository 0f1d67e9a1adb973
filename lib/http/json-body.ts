/**
 * Parses a JSON request body, refusing what is not one with the right status: missing or not an
 * object → 400, not declared as JSON or sent compressed → 415, larger than the limit → 413, malformed → 400.
 * (middy's http-json-body-parser answers malformed JSON with 422; the contract here is 400.)
 */
import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import * as z from 'zod/mini';
import { HttpError, MAX_BODY_BYTES, MAX_BODY_SIZE } from './errors.ts';
import { header } from './request-headers.ts';
import type { ApiResult } from './response.ts';

export { MAX_BODY_BYTES, MAX_BODY_SIZE };

export type JsonObject = Record<string, unknown>;

const JSON_MEDIA_TYPE = /^application\/(?:[\w.+-]+\+)?json$/i;
const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/** `example`: a body the operation accepts, which the message of a missing body shows. */
export function parseJsonBody(event: Pick<APIGatewayProxyEvent, 'body' | 'headers' | 'isBase64Encoded'>, example?: unknown): JsonObject {
  const raw = event.body ?? '';
  // A text body is only measured: copying it into a Buffer would be garbage at once.
  const bytes = event.isBase64Encoded ? Buffer.from(raw, 'base64') : undefined;
  const size = bytes ? bytes.length : Buffer.byteLength(raw, 'utf8');
  if (size === 0) {
    throw new HttpError(
      'validation_failed',
      `Request body is required: send a JSON object${example ? ` such as ${JSON.stringify(example)}` : ''}.`,
    );
  }
  if (size > MAX_BODY_BYTES) {
    throw new HttpError(
      'payload_too_large',
      `Request body is larger than the limit of ${MAX_BODY_BYTES} bytes (${MAX_BODY_SIZE}): send at most ${MAX_BODY_SIZE}.`,
    );
  }
  const contentType = header(event.headers, 'content-type');
  const params = (contentType ?? '').split(';').map((part) => part.trim());
  const mediaType = params[0] ?? '';
  const charset = params
    .find((p, i) => i > 0 && /^charset=/i.test(p))
    ?.slice('charset='.length)
    .replace(/"/g, '');
  if (!JSON_MEDIA_TYPE.test(mediaType) || (charset !== undefined && !/^utf-?8$/i.test(charset))) {
    throw new HttpError(
      'unsupported_media_type',
      `Content-Type ${contentType === undefined ? 'is missing' : `"${contentType}" is not supported`}: send the body as "Content-Type: application/json" (UTF-8).`,
    );
  }
  // A compressed body would only fail later as "not valid UTF-8"; say what is really wrong.
  const encoding = header(event.headers, 'content-encoding')?.trim();
  if (encoding && encoding.toLowerCase() !== 'identity') {
    throw new HttpError(
      'unsupported_media_type',
      `Content-Encoding "${encoding}" is not supported: send the JSON body uncompressed, without a Content-Encoding header.`,
    );
  }
  let text: string;
  try {
    text = bytes ? strictUtf8.decode(bytes) : raw;
  } catch {
    throw new HttpError('validation_failed', 'Request body is not valid UTF-8.');
  }
  // RFC 8259 §8.1 lets a parser ignore a byte order mark; JSON.parse does not, so it goes here.
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new HttpError('validation_failed', `Request body is not valid JSON: ${(error as Error).message}.`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new HttpError(
      'validation_failed',
      `Request body must be a JSON object, not ${Array.isArray(value) ? 'an array' : value === null ? 'null' : `a ${typeof value}`}.`,
    );
  }
  return value as JsonObject;
}

/** Replaces `event.body` with the parsed object, before the handler runs; `schema` is the body's (its example is the hint). */
export function jsonBody(schema: z.ZodMiniType): MiddlewareObj<APIGatewayProxyEvent, ApiResult> {
  const [example] = (z.globalRegistry.get(schema)?.examples as readonly unknown[] | undefined) ?? [];
  return {
    before: (request) => {
      const parsed = parseJsonBody(request.event, example);
      // The event keeps API Gateway's type for the middleware chain; handlers see JsonBodyEvent.
      (request.event as unknown as { body: JsonObject }).body = parsed;
    },
  };
}

export type JsonBodyEvent = Omit<APIGatewayProxyEvent, 'body'> & { body: JsonObject };
