/**
 * The API reference page, `GET /v1/docs`: Swagger UI (swagger-ui-dist) rendering the stage's own
 * `/v1/openapi.json`, every asset served from `/v1/docs/…` by the same function, so no request
 * leaves the API's origin. The page points "Try it out" at the stage it was loaded from, whatever
 * servers the document lists, and a reader authorizes with an API key (Authorize → bearerAuth).
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { REQUEST_ID_HEADER } from '../http/access-log.ts';
import { NOT_FOUND_MESSAGE } from '../http/gateway-errors.ts';
import { HttpError } from '../http/errors.ts';
import { errorResult } from '../http/response.ts';
import { absoluteUrl } from '../http/urls.ts';
import { API_BASE_PATH, OPENAPI_DOCUMENT_PATH } from '../routes.ts';

export const REFERENCE_PAGE_PATH = '/docs';

/** Swagger UI's files the page loads, with their media types; the CDK copies them next to the bundle. */
export const REFERENCE_ASSETS: Readonly<Record<string, string>> = {
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui.css': 'text/css; charset=utf-8',
};

/** Where the deployed bundle keeps the assets, beside index.js (infra/cdk/stage-stack.ts). */
export const BUNDLED_ASSETS_DIR = 'swagger-ui';

/**
 * The bundle's folder: `__dirname` of the CommonJS bundle. The ESM sources have none (and no
 * `import.meta` in the bundle), so there the assets come from the npm package, resolved from the
 * running script.
 */
const bundleDir = typeof __dirname === 'string' ? __dirname : undefined;

const cache = new Map<string, string>();

/** An asset's text: beside the bundle when deployed, from the npm package in local source mode. */
function asset(name: string): string {
  let text = cache.get(name);
  if (text === undefined) {
    const bundled = bundleDir === undefined ? undefined : join(bundleDir, BUNDLED_ASSETS_DIR, name);
    const file =
      bundled !== undefined && existsSync(bundled)
        ? bundled
        : createRequire(process.argv[1] ?? join(process.cwd(), 'index.js')).resolve(`swagger-ui-dist/${name}`);
    text = readFileSync(file, 'utf8');
    cache.set(name, text);
  }
  return text;
}

/** Public and the same for every origin, as the OpenAPI document is (README, "CORS"). */
const COMMON_HEADERS = { 'X-Content-Type-Options': 'nosniff', 'Access-Control-Allow-Origin': '*' };

export function referencePageResponse(event: APIGatewayProxyEvent): APIGatewayProxyResult {
  const requestId = event.requestContext?.requestId ?? '';
  const name = event.pathParameters?.asset;
  if (name === undefined) {
    return {
      statusCode: 200,
      headers: {
        'Content-Type': 'text/html; charset=utf-8',
        'Cache-Control': 'no-cache',
        ...COMMON_HEADERS,
        [REQUEST_ID_HEADER]: requestId,
      },
      body: page(absoluteUrl(event, API_BASE_PATH)),
    };
  }
  const type = Object.hasOwn(REFERENCE_ASSETS, name) ? REFERENCE_ASSETS[name] : undefined;
  if (type === undefined) {
    const result = errorResult(new HttpError('not_found', NOT_FOUND_MESSAGE));
    return { ...result, headers: { ...result.headers, 'Cache-Control': 'no-store', ...COMMON_HEADERS, [REQUEST_ID_HEADER]: requestId } };
  }
  return {
    statusCode: 200,
    // The assets change only with a deploy; an hour of caching spares a reader the 1.7 MB again.
    headers: { 'Content-Type': type, 'Cache-Control': 'public, max-age=3600', ...COMMON_HEADERS, [REQUEST_ID_HEADER]: requestId },
    body: asset(name),
  };
}

/** The page. `base` is this stage's base address (…/v1); JSON.stringify makes it a safe JS string. */
function page(base: string): string {
  const assets = `${base}${REFERENCE_PAGE_PATH}`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Pet Store API reference</title>
<link rel="stylesheet" href="${assets}/swagger-ui.css">
<link rel="icon" href="data:,">
</head>
<body>
<div id="swagger-ui"></div>
<script src="${assets}/swagger-ui-bundle.js"></script>
<script>
  const base = ${JSON.stringify(base).replace(/</g, '\\u003c')};
  fetch(base + ${JSON.stringify(OPENAPI_DOCUMENT_PATH)})
    .then((response) => response.json())
    .then((spec) => {
      // "Try it out" calls the stage this page came from, not the document's server templates.
      spec.servers = [{ url: base, description: 'This stage' }];
      window.ui = SwaggerUIBundle({ spec, dom_id: '#swagger-ui', deepLinking: true, validatorUrl: null, persistAuthorization: false });
    });
</script>
</body>
</html>
`;
}
