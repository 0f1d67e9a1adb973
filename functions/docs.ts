/**
 * GET (and HEAD) /v1/docs and /v1/docs/{asset}: the API reference page and its assets, public like the
 * OpenAPI document (no API key; the page asks for one to try the operations).
 */
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { referencePageResponse } from '#lib/openapi/reference-page.ts';

export const handler = async (event: APIGatewayProxyEvent): Promise<APIGatewayProxyResult> => referencePageResponse(event);
