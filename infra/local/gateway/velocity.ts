// Variables per "API Gateway mapping template and access logging variable reference".
import { Compile, parse } from 'velocityjs';
import { header as headerIn } from '#lib/http/request-headers.ts';

export type ContextVariables = Record<string, unknown>;

export interface TemplateInput {
  readonly context: ContextVariables;
  readonly body: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly query: Readonly<Record<string, string>>;
  readonly pathParameters: Readonly<Record<string, string>>;
}

const compiled = new Map<string, Compile>();

export function renderTemplate(template: string, input: TemplateInput): string {
  let compile = compiled.get(template);
  if (!compile) {
    // escape off: API Gateway outputs values as they are, not HTML-escaped.
    compile = new Compile(parse(template), { escape: false });
    compiled.set(template, compile);
  }
  return compile.render({ context: input.context, input: inputVariable(input), util, stageVariables: {} });
}

function inputVariable(input: TemplateInput) {
  const parameter = (name: string): string => input.pathParameters[name] ?? input.query[name] ?? headerIn(input.headers, name) ?? '';
  return {
    body: input.body,
    json: (path: string) => JSON.stringify(select(parseBody(input.body), path)),
    path: (path: string) => select(parseBody(input.body), path),
    params: (name?: string) =>
      name === undefined ? { path: input.pathParameters, querystring: input.query, header: input.headers } : parameter(name),
  };
}

const util = {
  escapeJavaScript: (value: string) => JSON.stringify(String(value)).slice(1, -1).replace(/'/g, "\\'"),
  parseJson: (value: string) => JSON.parse(value) as unknown,
  urlEncode: (value: string) => encodeURIComponent(value),
  urlDecode: (value: string) => decodeURIComponent(value),
  base64Encode: (value: string) => Buffer.from(value, 'utf8').toString('base64'),
  base64Decode: (value: string) => Buffer.from(value, 'base64').toString('utf8'),
};

function parseBody(body: string): unknown {
  try {
    return body === '' ? {} : (JSON.parse(body) as unknown);
  } catch {
    return {};
  }
}

/** A JSONPath of the simple `$`, `$.a.b` form, which is all the templates here use. */
function select(value: unknown, path: string): unknown {
  if (!/^\$(\.[A-Za-z_$][\w$]*)*$/.test(path)) throw new Error(`Local mode supports only $ and $.a.b JSONPaths, not ${path}`);
  return valueAt(value, path.split('.').slice(1));
}

export function valueAt(value: unknown, keys: readonly string[]): unknown {
  return keys.reduce<unknown>(
    (current, key) => (current !== null && typeof current === 'object' ? (current as Record<string, unknown>)[key] : undefined),
    value,
  );
}
