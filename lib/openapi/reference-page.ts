/**
 * The API reference page, `GET /v1/docs`: Swagger UI (swagger-ui-dist) rendering the stage's own `/v1/openapi.json`, every asset served
 * from `/v1/docs/…` by the same function under a name that carries its content's hash (cached for a year; any other name is a 404), the
 * page under a Content-Security-Policy, and an asset only to a client whose Accept-Encoding makes the gateway compress it (else a 406
 * that says what to send). Why each: docs/reference-page.md.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { REQUEST_ID_HEADER } from '../http/request-line.ts';
import { gatewayCompresses } from '../http/content-coding.ts';
import { methodNotAllowedMessage, NOT_FOUND_MESSAGE } from '../http/gateway-errors.ts';
import { HttpError } from '../http/errors.ts';
import { headerValues } from '../http/request-headers.ts';
import { COMMON_RESPONSE_HEADERS, errorResult, json } from '../http/response.ts';
import { absoluteUrl } from '../http/urls.ts';
import { API_BASE_PATH, OPENAPI_DOCUMENT_PATH, PUBLIC_DOCUMENT_METHODS } from '../routes.ts';

export const REFERENCE_PAGE_PATH = '/docs';
/** The reference page's two routes, relative to the base address: the page and its assets. */
export const REFERENCE_PAGE_RESOURCES = [REFERENCE_PAGE_PATH, `${REFERENCE_PAGE_PATH}/{asset}`] as const;
/**
 * The one API Gateway method of each route: the function answers GET and HEAD, and 405 to any other,
 * so HEAD costs no method of its own (a throttle bucket and a concurrency need; docs/reference-page.md).
 */
export const REFERENCE_PAGE_METHOD = 'ANY';

/** Swagger UI's files the page loads (package file names), with their media types; the CDK copies them next to the bundle. */
export const REFERENCE_ASSETS: Readonly<Record<string, string>> = {
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui.css': 'text/css; charset=utf-8',
};

/** Where the deployed bundle keeps the assets, beside index.js (infra/cdk/stage-stack.ts). */
export const BUNDLED_ASSETS_DIR = 'swagger-ui';

/** The bundle's folder: `__dirname` of the CommonJS bundle. */
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

/**
 * The page's own script, served as an asset like Swagger UI's (the policy allows no inline script): it loads this stage's document and
 * points "Try it out" at this stage, whatever servers the document lists. The page gives it the stage's base address in `data-base`.
 */
const PAGE_SCRIPT = `const root = document.getElementById('swagger-ui');
const base = root.dataset.base;
fetch(base + ${JSON.stringify(OPENAPI_DOCUMENT_PATH)})
  .then((response) => response.json())
  .then((spec) => {
    spec.servers = [{ url: base, description: 'This stage' }];
    window.ui = SwaggerUIBundle({ spec, domNode: root, deepLinking: true, validatorUrl: null, persistAuthorization: false });
  });
`;

/** The page's policy: its own origin only (Swagger UI's stylesheet embeds its icons as data: images). */
export const REFERENCE_PAGE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** A year, the most a cache keeps anything: a served asset's content never changes under its name. */
export const IMMUTABLE_CACHE_CONTROL = 'public, max-age=31536000, immutable';

interface ServedAsset {
  /** The file it is made from: a package file name, or `reference.js` for the page's script. */
  readonly source: string;
  readonly type: string;
  readonly body: string;
}

let served: ReadonlyMap<string, ServedAsset> | undefined;

/** Every asset by its served name (`swagger-ui.3f2a9c1b.css`): the name carries its content's hash. */
export function servedAssets(): ReadonlyMap<string, ServedAsset> {
  if (served === undefined) {
    const files: ServedAsset[] = [
      ...Object.entries(REFERENCE_ASSETS).map(([source, type]) => ({ source, type, body: asset(source) })),
      { source: 'reference.js', type: 'text/javascript; charset=utf-8', body: PAGE_SCRIPT },
    ];
    served = new Map(files.map((file) => [hashedName(file.source, file.body), file]));
  }
  return served;
}

/** `swagger-ui-bundle.js` → `swagger-ui-bundle.<first 8 hex of its SHA-256>.js`. */
function hashedName(name: string, body: string): string {
  const dot = name.lastIndexOf('.');
  return `${name.slice(0, dot)}.${createHash('sha256').update(body).digest('hex').slice(0, 8)}${name.slice(dot)}`;
}

/** The served name of a source file. */
function servedName(source: string): string {
  const found = [...servedAssets()].find(([, file]) => file.source === source);
  if (found === undefined) throw new Error(`No served asset for ${source}`);
  return found[0];
}

/** Public and the same for every origin, as the OpenAPI document is (docs/cors.md). */
const PUBLIC_HEADERS = { 'X-Content-Type-Options': 'nosniff', 'Access-Control-Allow-Origin': '*', Vary: 'Accept-Encoding' };

/** The 406's message: what to send instead. */
export const NOT_ACCEPTABLE_MESSAGE =
  'The reference page\'s assets are served only to clients that accept them compressed: send "Accept-Encoding: gzip" (or deflate), as every browser does.';

/**
 * The most bytes a docs response carries on the wire: the largest asset gzip-compressed at zlib's fastest level (1), an upper estimate
 * of the gateway's coding (AWS does not document its level; deflate is gzip less its 18-byte frame).
 */
export function largestDocsResponseBytes(): number {
  return Math.max(...[...servedAssets().values()].map((file) => gzipSync(file.body, { level: 1 }).length));
}

export function referencePageResponse(event: APIGatewayProxyEvent): APIGatewayProxyResult {
  const requestId = event.requestContext?.requestId ?? '';
  const refuse = (error: HttpError): APIGatewayProxyResult => {
    const result = errorResult(error);
    return { ...result, headers: { ...result.headers, ...COMMON_RESPONSE_HEADERS, ...PUBLIC_HEADERS, [REQUEST_ID_HEADER]: requestId } };
  };
  if (!(PUBLIC_DOCUMENT_METHODS as readonly string[]).includes(event.httpMethod)) {
    const message = methodNotAllowedMessage(event.httpMethod, event.resource, PUBLIC_DOCUMENT_METHODS);
    return refuse(new HttpError('method_not_allowed', message, { Allow: PUBLIC_DOCUMENT_METHODS.join(', ') }));
  }
  const name = event.pathParameters?.asset;
  if (name === undefined) {
    return {
      statusCode: 200,
      headers: {
        'Content-Type': 'text/html; charset=utf-8',
        'Cache-Control': 'no-cache',
        'Content-Security-Policy': REFERENCE_PAGE_CSP,
        ...PUBLIC_HEADERS,
        [REQUEST_ID_HEADER]: requestId,
      },
      body: page(absoluteUrl(event, API_BASE_PATH)),
    };
  }
  const file = servedAssets().get(name);
  if (file === undefined) return refuse(new HttpError('not_found', NOT_FOUND_MESSAGE));
  // Several Accept-Encoding lines are one list (RFC 9110, section 5.3).
  if (!gatewayCompresses(headerValues(event, 'accept-encoding').join(', '))) {
    return json(
      406,
      { code: 'not_acceptable', message: NOT_ACCEPTABLE_MESSAGE, status: 406 },
      { ...COMMON_RESPONSE_HEADERS, ...PUBLIC_HEADERS, [REQUEST_ID_HEADER]: requestId },
    );
  }
  return {
    statusCode: 200,
    headers: {
      'Content-Type': file.type,
      'Cache-Control': IMMUTABLE_CACHE_CONTROL,
      ...PUBLIC_HEADERS,
      [REQUEST_ID_HEADER]: requestId,
    },
    body: file.body,
  };
}

/** The page. `base` is this stage's base address (…/v1), escaped for the attributes it appears in. */
function page(base: string): string {
  const assets = escapeAttribute(`${base}${REFERENCE_PAGE_PATH}`);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Pet Store API reference</title>
<link rel="stylesheet" href="${assets}/${servedName('swagger-ui.css')}">
<link rel="icon" href="data:,">
</head>
<body>
<div id="swagger-ui" data-base="${escapeAttribute(base)}"></div>
<script src="${assets}/${servedName('swagger-ui-bundle.js')}"></script>
<script src="${assets}/${servedName('reference.js')}"></script>
</body>
</html>
`;
}

function escapeAttribute(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
