/** docs/openapi.md ("Versions") as code. */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';

/** The document as of the last release (written by `npm run openapi -- --release`, never by hand). */
export const RELEASED_FILE =
  process.env.OPENAPI_RELEASED_FILE ?? fileURLToPath(new URL('../../docs/openapi-released.json', import.meta.url));
export const CHANGELOG_FILE = fileURLToPath(new URL('../../docs/CHANGELOG.md', import.meta.url));

/** What a change means for the version: breaking needs `/v2`; compatible is a minor release; docs a patch. */
export type ChangeKind = 'breaking' | 'compatible' | 'docs';

export interface Change {
  readonly kind: ChangeKind;
  /** Where a client meets it: `GET /pets query parameter limit maximum`, `POST /pets response 201 header Location required`. */
  readonly where: string;
  /** What happened to it: `removed`, `added "reserved"`, `changed from 100 to 50`, `made optional`, `text changed`. */
  readonly what: string;
}

export interface Comparison {
  readonly releasedVersion: string;
  readonly changes: readonly Change[];
  readonly breaking: readonly Change[];
  /** The version a release of these changes takes, or undefined when there is nothing to release or it breaks v1. */
  readonly nextVersion: string | undefined;
}

// biome-ignore lint/suspicious/noExplicitAny: documents are walked by key at run time; every access is checked where it matters
type Json = Record<string, any>;

export async function readReleased(): Promise<Json> {
  return JSON.parse(await readFile(RELEASED_FILE, 'utf8')) as Json;
}

export function compareWithReleased(released: Json, current: Json): Comparison {
  const releasedVersion = versionOf(released);
  const [before, after] = [canonical(released), canonical(current)];
  const changes: Change[] = [];
  for (const diff of changesBetween(before, after, [])) {
    // The release step moves info.version itself.
    if (diff.path[0] === 'info' && diff.path[1] === 'version') continue;
    changes.push({ kind: verdictOf(diff), where: placeOf(diff, before), what: whatOf(diff) });
  }
  // Written differently with the same meaning (a schema moved behind a `$ref`, say): a patch, so the snapshot can follow.
  if (changes.length === 0 && !isDeepStrictEqual(withVersion(released, ''), withVersion(current, ''))) {
    changes.push({ kind: 'docs', where: 'document', what: 'written differently, same meaning' });
  }
  const breaking = changes.filter((c) => c.kind === 'breaking');
  let nextVersion: string | undefined;
  if (breaking.length === 0 && changes.length > 0) {
    nextVersion = bump(releasedVersion, changes.some((c) => c.kind === 'compatible') ? 'minor' : 'patch');
  }
  return { releasedVersion, changes, breaking, nextVersion };
}

/** One line per change, for a failure message or the changelog. */
export function formatChanges(changes: readonly Change[]): string {
  return changes.map((c) => `- ${c.where}: ${c.what}`).join('\n');
}

/** What `npm test` and `npm run openapi` say about the generated document against the released one. */
export function summarise(comparison: Comparison): string {
  const { releasedVersion, changes, breaking, nextVersion } = comparison;
  if (breaking.length > 0) {
    return (
      `The OpenAPI document breaks v1 (released ${releasedVersion}) with ${breaking.length} change(s):\n${formatChanges(breaking)}\n` +
      'A breaking change needs a /v2 beside /v1 (docs/openapi.md, "Versions"); within v1, undo it.'
    );
  }
  if (!nextVersion) return `The OpenAPI document is the released ${releasedVersion}.`;
  return (
    `The OpenAPI document changed compatibly since ${releasedVersion}; its release will be ${nextVersion}. ` +
    `Add to docs/CHANGELOG.md under "## ${nextVersion}", in words a client developer reads:\n${formatChanges(changes)}\n` +
    'then run npm run openapi -- --release.'
  );
}

export function versionOf(document: Json): string {
  const version = (document.info as Json | undefined)?.version;
  if (typeof version !== 'string' || !/^\d+\.\d+\.\d+$/.test(version)) throw new Error(`info.version ${String(version)} is not x.y.z`);
  return version;
}

export function bump(version: string, part: 'minor' | 'patch'): string {
  const [major, minor, patch] = version.split('.').map(Number) as [number, number, number];
  return part === 'minor' ? `${major}.${minor + 1}.0` : `${major}.${minor}.${patch + 1}`;
}

const withVersion = (document: Json, version: string): Json => ({ ...document, info: { ...document.info, version } });

// --------------------------------------------------------------------------------------------- What a client sees

const HTTP_METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

/** The document as a client meets it. */
function canonical(document: Json): Json {
  const resolved = resolveRefs(document, document, []) as Json;
  const { paths = {}, servers = [], security, components = {}, ...rest } = resolved;
  const canonicalPaths: Json = {};
  for (const [route, item] of Object.entries(paths as Json)) {
    const { parameters: shared = [], ...operations } = item as Json;
    const canonicalItem: Json = {};
    for (const [method, operation] of Object.entries(operations)) {
      if (!HTTP_METHODS.has(method)) {
        canonicalItem[method] = operation;
        continue;
      }
      const own: Json[] = operation.parameters ?? [];
      const parameters = [...(shared as Json[]).filter((p) => !own.some((o) => o.name === p.name && o.in === p.in)), ...own];
      const requirements: Json[] | undefined = operation.security ?? security;
      const { parameters: _, security: __, ...fields } = operation;
      canonicalItem[method] = {
        ...fields,
        parameters,
        // No requirement, or an empty one, lets every request through: the operation is public.
        ...(requirements?.length && !requirements.some((r) => Object.keys(r).length === 0) && { security: bySchemes(requirements) }),
      };
    }
    canonicalPaths[route] = canonicalItem;
  }
  return {
    ...rest,
    servers: Object.fromEntries((servers as Json[]).map(({ url, ...server }) => [url, server])),
    paths: canonicalPaths,
    components: {
      schemas: Object.fromEntries(Object.keys(components.schemas ?? {}).map((name) => [name, {}])),
      securitySchemes: components.securitySchemes ?? {},
    },
  };
}

/** Security requirements (alternatives) keyed by the schemes each demands together: `bearerAuth`, `apiKey+bearerAuth`. */
function bySchemes(requirements: Json[]): Json {
  return Object.fromEntries(requirements.map((r) => [Object.keys(r).sort().join('+'), r]));
}

function resolveRefs(node: unknown, root: Json, seen: string[]): unknown {
  if (Array.isArray(node)) return node.map((item) => resolveRefs(item, root, seen));
  if (node === null || typeof node !== 'object') return node;
  const { $ref, ...siblings } = node as Json;
  if (typeof $ref === 'string' && $ref.startsWith('#/') && !seen.includes($ref)) {
    const target = $ref
      .slice(2)
      .split('/')
      .reduce<unknown>((at, key) => (at as Json | undefined)?.[key.replaceAll('~1', '/').replaceAll('~0', '~')], root);
    if (target === undefined) throw new Error(`${$ref} refers to nothing`);
    // OpenAPI 3.1 lets a `$ref` carry siblings (a default, a description); they apply on top of the target.
    return resolveRefs({ ...(target as Json), ...siblings }, root, [...seen, $ref]);
  }
  return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, resolveRefs(value, root, seen)]));
}

// --------------------------------------------------------------------------------------------- The changes

interface Diff {
  readonly action: 'add' | 'remove' | 'replace';
  /** Where in the canonical document; an added list item's index is its index in the new list. */
  readonly path: readonly string[];
  readonly before?: unknown;
  readonly after?: unknown;
}

/** Lists whose order means nothing: an item added or removed is the change. */
const SETS = new Set(['enum', 'required', 'type']);

function changesBetween(before: unknown, after: unknown, path: string[]): Diff[] {
  if (isDeepStrictEqual(before, after)) return [];
  const key = path.at(-1);
  if (Array.isArray(before) && Array.isArray(after)) {
    if (key !== undefined && SETS.has(key)) {
      return [
        ...before.flatMap((v, i) =>
          after.some((w) => isDeepStrictEqual(v, w)) ? [] : [{ action: 'remove' as const, path: [...path, String(i)], before: v }],
        ),
        ...after.flatMap((v, i) =>
          before.some((w) => isDeepStrictEqual(v, w)) ? [] : [{ action: 'add' as const, path: [...path, String(i)], after: v }],
        ),
      ];
    }
    // Parameters are one by location and name, wherever they stand in the list.
    const identity = key === 'parameters' ? (p: Json) => `${p.in} ${p.name}` : (_: unknown, i: number) => String(i);
    return matchBy(before, after, path, identity);
  }
  if (isObject(before) && isObject(after)) {
    // A path is one by its template: `/pets/{petId}` and `/pets/{id}` are the same address.
    const identity = path.length === 1 && key === 'paths' ? (route: string) => route.replace(/\{[^}]*\}/g, '{}') : (k: string) => k;
    return matchBy(Object.keys(before), Object.keys(after), path, identity, before, after);
  }
  return [{ action: before === undefined ? 'add' : after === undefined ? 'remove' : 'replace', path, before, after }];
}

/** Matches two lists (or two objects' keys) by identity; a change under a matched item is placed at its released key. */
function matchBy(
  before: unknown[],
  after: unknown[],
  path: string[],
  // biome-ignore lint/suspicious/noExplicitAny: identities take list items or object keys
  identity: (item: any, index: number) => string,
  beforeObject?: Json,
  afterObject?: Json,
): Diff[] {
  const at = (list: unknown[], object: Json | undefined, i: number) => (object ? object[list[i] as string] : list[i]);
  const keyOf = (list: unknown[], object: Json | undefined, i: number) => (object ? String(list[i]) : String(i));
  const released = new Map(before.map((item, i) => [identity(item, i), i]));
  const current = new Map(after.map((item, i) => [identity(item, i), i]));
  const diffs: Diff[] = [];
  for (const [id, i] of released) {
    const j = current.get(id);
    const path_ = [...path, keyOf(before, beforeObject, i)];
    if (j === undefined) diffs.push({ action: 'remove', path: path_, before: at(before, beforeObject, i) });
    else diffs.push(...changesBetween(at(before, beforeObject, i), at(after, afterObject, j), path_));
  }
  for (const [id, j] of current) {
    if (!released.has(id)) diffs.push({ action: 'add', path: [...path, keyOf(after, afterObject, j)], after: at(after, afterObject, j) });
  }
  return diffs;
}

const isObject = (value: unknown): value is Json => value !== null && typeof value === 'object' && !Array.isArray(value);

// --------------------------------------------------------------------------------------------- The policy, one rule per line

type Direction = 'request' | 'response';
type Effect = 'widens' | 'narrows' | 'changes' | 'prose';

/** Prose and illustrations: nothing a client sends or receives depends on them. */
const PROSE = new Set(['description', 'summary', 'title', 'example', 'examples', 'externalDocs', '$comment']);
/** Keys whose children are names, where `description` or `type` is a name, not a keyword. */
const NAMED = new Set([
  'paths',
  'properties',
  'patternProperties',
  '$defs',
  'headers',
  'content',
  'responses',
  'schemas',
  'securitySchemes',
  'servers',
  'variables',
  'examples',
  'security',
]);
const UPPER_BOUNDS = new Set(['maximum', 'exclusiveMaximum', 'maxLength', 'maxItems', 'maxProperties', 'maxContains']);
const LOWER_BOUNDS = new Set(['minimum', 'exclusiveMinimum', 'minLength', 'minItems', 'minProperties', 'minContains', 'multipleOf']);
/** Formats a value of the first also satisfies the second. */
const WIDER_FORMAT: Record<string, string> = { int32: 'int64' };

function verdictOf(diff: Diff): ChangeKind {
  const path = diff.path.map(String);
  // "descriptions, summaries and examples reworded": documentation, wherever they are.
  if (isProse(path)) return 'docs';
  const [root, route, method, where, ...rest] = path;
  if (root === 'paths') {
    // "an operation, path, parameter, header or response removed or renamed" (a path's template is its name).
    if (route === undefined || method === undefined) return diff.action === 'add' ? 'compatible' : 'breaking';
    // "a new operation or path"
    if (where === undefined) return diff.action === 'add' ? 'compatible' : 'breaking';
    if (where === 'deprecated') return 'compatible'; // "an operation marked deprecated" (and unmarked: it keeps working)
    if (where === 'parameters') return parameterVerdict(diff, rest);
    if (where === 'requestBody') return requestBodyVerdict(diff, rest);
    if (where === 'responses') return responseVerdict(diff, rest);
    if (where === 'security') return securityVerdict(diff, rest);
    // operationId: generated clients name the method after it; anything else is breaking until someone decides.
    return 'breaking';
  }
  if (root === 'servers') {
    // A client configured with a server's address keeps it; a new one harms nobody.
    return route !== undefined && method === undefined && diff.action === 'add' ? 'compatible' : 'breaking';
  }
  if (root === 'components') {
    // A schema's name is a generated client's type name; a new scheme is unused until an operation demands it.
    return where === undefined && diff.action === 'add' ? 'compatible' : 'breaking';
  }
  if (root === 'info' || root === 'tags') return 'docs';
  // An `x-` extension or anything else no rule knows: breaking until someone decides.
  return 'breaking';
}

function isProse(path: string[]): boolean {
  return path.some((key, i) => PROSE.has(key) && i > 0 && !NAMED.has(path[i - 1] as string));
}

function parameterVerdict(diff: Diff, [, field, ...rest]: string[]): ChangeKind {
  // "a new optional query parameter, request header" / "a new required parameter"
  if (field === undefined) return diff.action === 'add' && !isRequired(diff.after) ? 'compatible' : 'breaking';
  // "a new required parameter": made required breaks, made optional does not.
  if (field === 'required') return madeRequired(diff, 'breaking', 'compatible');
  if (field === 'deprecated') return 'compatible';
  if (field === 'schema') return schemaVerdict(diff, rest, 'request');
  // name, in, style, explode…: "a parameter renamed"; the rest is breaking until someone decides.
  return 'breaking';
}

/** `required: true` added or removed (absent is false: written out or not, false is no change). */
function madeRequired(diff: Diff, required: ChangeKind, optional: ChangeKind): ChangeKind {
  if (diff.after === true) return required;
  return diff.before === true ? optional : 'docs';
}

const isRequired = (parameter: unknown) => (parameter as Json | undefined)?.required === true || (parameter as Json)?.in === 'path';

function requestBodyVerdict(diff: Diff, [field, mediaType, schema, ...rest]: string[]): ChangeKind {
  if (field === undefined) return diff.action === 'add' && (diff.after as Json)?.required !== true ? 'compatible' : 'breaking';
  if (field === 'required') return madeRequired(diff, 'breaking', 'compatible');
  if (field === 'content') {
    // A new media type accepts more; a removed one refuses requests that were valid.
    if (schema === undefined) return mediaType !== undefined && diff.action === 'add' ? 'compatible' : 'breaking';
    if (schema === 'schema') return schemaVerdict(diff, rest, 'request');
  }
  return 'breaking';
}

function responseVerdict(diff: Diff, [status, field, name, sub, ...rest]: string[]): ChangeKind {
  // "a new response status on an operation" / "a response status removed"
  if (field === undefined) return status !== undefined && diff.action === 'add' ? 'compatible' : 'breaking';
  if (field === 'headers') {
    // "a new optional response header" (a required one too: clients ignore headers they do not read) / "header removed"
    if (sub === undefined) return name !== undefined && diff.action === 'add' ? 'compatible' : 'breaking';
    // "a required response header removed, or made optional"
    if (sub === 'required') return madeRequired(diff, 'compatible', 'breaking');
    if (sub === 'schema') return schemaVerdict(diff, rest, 'response');
    return 'breaking';
  }
  if (field === 'content' && sub === 'schema') return schemaVerdict(diff, rest, 'response');
  // A media type added or removed: a client that sends no `Accept` may get a body it cannot read, or lose the one it reads.
  return 'breaking';
}

function securityVerdict(diff: Diff, [alternative, scheme, scope]: string[]): ChangeKind {
  // Security removed: the operation is public; every request with a key is accepted as before.
  if (alternative === undefined) return diff.action === 'remove' ? 'compatible' : 'breaking';
  // A new alternative (other credentials also work) is compatible; a removed one refuses the clients using it.
  if (scheme === undefined) return diff.action === 'add' ? 'compatible' : 'breaking';
  // A scope no longer demanded lets more keys through; a new one refuses keys without it.
  if (scope !== undefined && diff.action === 'remove') return 'compatible';
  return 'breaking';
}

/**
 * "every request valid under the released document is still accepted with the same meaning, and
 * every response the service sends is still valid under it": a schema may accept more in a request
 * and less in a response. A field removed or renamed, a default, a type changed break both ways.
 */
function schemaVerdict(diff: Diff, path: string[], direction: Direction): ChangeKind {
  const effect = schemaEffect(diff, path);
  if (effect === 'prose') return 'docs';
  if (effect === 'changes') return 'breaking';
  return (effect === 'widens') === (direction === 'request') ? 'compatible' : 'breaking';
}

function schemaEffect(diff: Diff, path: string[]): Effect {
  const last = path.at(-1);
  const keyword = last !== undefined && /^\d+$/.test(last) ? path.at(-2) : last;
  const { action, before, after } = diff;
  // The whole schema, or a subschema (items, allOf…), added or removed: a different shape.
  if (keyword === undefined) return 'changes';
  if (path.at(-2) === 'properties') {
    // "a response field removed, renamed"; a request field removed is refused by the closed object.
    if (action !== 'add') return 'changes';
    // A new field: a closed request object accepts more (its being required is its own change);
    // "a new response field" fails a strict validator of the closed response object.
    return 'widens';
  }
  if (keyword === 'required' || keyword === 'enum' || keyword === 'type') {
    // An item of a list: a new `required` item narrows, a new enum or type value widens.
    if (last !== keyword) return (action === 'add') === (keyword === 'required') ? 'narrows' : 'widens';
    if (action === 'add') return 'narrows';
    if (action === 'remove') return 'widens';
    const [was, is] = [[before].flat(), [after].flat()];
    if (keyword === 'required')
      return is.every((v) => was.includes(v)) ? 'widens' : was.every((v) => is.includes(v)) ? 'narrows' : 'changes';
    if (was.every((v) => is.includes(v))) return keyword === 'type' && !isNullWidening(was, is) ? 'changes' : 'widens';
    if (is.every((v) => was.includes(v))) return keyword === 'type' && !isNullWidening(is, was) ? 'changes' : 'narrows';
    return 'changes';
  }
  if (keyword === 'additionalProperties' || keyword === 'unevaluatedProperties') {
    if (typeof before === 'object' || typeof after === 'object') return 'changes';
    // Absent or true: any other field allowed; false: none.
    const [was, is] = [before !== false, after !== false];
    return was === is ? 'changes' : is ? 'widens' : 'narrows';
  }
  if (UPPER_BOUNDS.has(keyword) || LOWER_BOUNDS.has(keyword)) {
    if (action === 'add') return 'narrows';
    if (action === 'remove') return 'widens';
    if (keyword === 'multipleOf') return 'changes';
    const raised = Number(after) > Number(before);
    return raised === UPPER_BOUNDS.has(keyword) ? 'widens' : 'narrows';
  }
  if (keyword === 'format') {
    if (action === 'add') return 'narrows';
    if (action === 'remove') return 'widens';
    if (WIDER_FORMAT[String(before)] === after) return 'widens';
    if (WIDER_FORMAT[String(after)] === before) return 'narrows';
    return 'changes';
  }
  if (keyword === 'pattern' || keyword === 'const' || keyword === 'uniqueItems') {
    // No check can prove one pattern wider than another: only its removal or addition is clear.
    if (action === 'add') return 'narrows';
    if (action === 'remove') return 'widens';
    return 'changes';
  }
  if (keyword === 'deprecated') return 'prose';
  // "a default changed", and every keyword no rule knows: breaking until someone decides.
  return 'changes';
}

/** `string` to `[string, null]`: the same type, made nullable (widened), not a type changed. */
function isNullWidening(narrow: unknown[], wide: unknown[]): boolean {
  return wide.filter((t) => !narrow.includes(t)).every((t) => t === 'null');
}

// --------------------------------------------------------------------------------------------- Where and what, in a client's words

/** `GET /pets query parameter limit maximum`, `GET /pets response 200 application/json items.properties.id type`. */
function placeOf(diff: Diff, before: Json): string {
  const path = diff.path.map(String);
  const [root, ...rest] = path;
  if (root === 'paths') {
    const [route, method, where, ...tail] = rest as [string, string | undefined, string | undefined, ...string[]];
    if (method === undefined) {
      const methods = Object.keys((diff.after ?? diff.before) as Json).filter((m) => HTTP_METHODS.has(m));
      return `${methods.map((m) => m.toUpperCase()).join(', ')} ${route}`;
    }
    if (!method || !HTTP_METHODS.has(method)) return [route, method, where, ...tail].filter(Boolean).join(' ');
    const words = [`${method.toUpperCase()} ${route}`];
    if (where === undefined) return words[0] as string;
    if (where === 'parameters' && tail[0] !== undefined) {
      // An added parameter is in no released list: its name is in the change itself.
      const parameter: Json | undefined =
        tail.length === 1 && diff.action === 'add' ? diff.after : before.paths[route]?.[method]?.parameters?.[Number(tail[0])];
      words.push(`${String(parameter?.in)} parameter ${String(parameter?.name)}`);
      tail.shift();
      if (tail[0] === 'schema') tail.shift();
      words.push(...schemaPlace(tail, diff));
    } else if (where === 'requestBody') {
      words.push('request body', ...contentPlace(tail, diff));
    } else if (where === 'responses' && tail[0] !== undefined) {
      words.push(`response ${tail.shift()}`);
      if (tail[0] === 'headers' && tail[1] !== undefined) {
        words.push(`header ${tail[1]}`);
        const rest = tail.slice(tail[2] === 'schema' ? 3 : 2);
        words.push(...schemaPlace(rest, diff));
      } else {
        words.push(...contentPlace(tail, diff));
      }
    } else {
      words.push(where, ...tail);
    }
    return words.join(' ');
  }
  if (root === 'servers' && rest[0] !== undefined) return [`server ${rest[0]}`, rest.slice(1).join('.')].filter(Boolean).join(' ');
  if (root === 'components' && rest[0] === 'securitySchemes' && rest[1] !== undefined) {
    return [`security scheme ${rest[1]}`, rest.slice(2).join('.')].filter(Boolean).join(' ');
  }
  if (root === 'components' && rest[0] === 'schemas' && rest[1] !== undefined) return `component schema ${rest[1]}`;
  return [root, rest[0], rest.slice(1).join('.')].filter(Boolean).join(' ');
}

function contentPlace(tail: string[], diff: Diff): string[] {
  if (tail[0] !== 'content') return tail.length > 0 ? [tail.join('.')] : [];
  const words = tail[1] !== undefined ? [tail[1]] : [];
  const rest = tail.slice(2);
  if (rest[0] === 'schema') rest.shift();
  return [...words, ...schemaPlace(rest, diff)];
}

/** `properties.name maxLength`, `items.properties.status required`, `allOf.1.properties.code enum`. */
function schemaPlace(path: string[], diff: Diff): string[] {
  const location: string[] = [];
  let i = 0;
  for (; i < path.length; i++) {
    const key = path[i] as string;
    if ((key === 'properties' || key === 'patternProperties' || /^(allOf|anyOf|oneOf|prefixItems)$/.test(key)) && i + 1 < path.length) {
      location.push(key, path[++i] as string);
    } else if ((key === 'items' || key === 'not' || key === 'additionalProperties') && i + 1 < path.length) {
      location.push(key);
    } else {
      break;
    }
  }
  let keyword = path.slice(i).filter((key) => !/^\d+$/.test(key));
  // A `required` item names the property it concerns.
  if (keyword[0] === 'required' && path.length > i + 1) {
    location.push('properties', String(diff.before ?? diff.after));
    keyword = ['required'];
  }
  return [location.join('.'), keyword.join('.')].filter(Boolean);
}

function whatOf(diff: Diff): string {
  const path = diff.path.map(String);
  const show = (value: unknown) => {
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) return '…';
    const text = JSON.stringify(value);
    return text.length > 40 ? `${text.slice(0, 39)}…` : text;
  };
  if (isProse(path) && diff.action === 'replace' && typeof diff.after === 'string') return 'text changed';
  if (path.at(-2) === 'required' && path.at(-3) !== 'properties') return diff.action === 'add' ? 'made required' : 'made optional';
  if (diff.action === 'replace') return `changed from ${show(diff.before)} to ${show(diff.after)}`;
  const label = diff.action === 'add' ? 'added' : 'removed';
  const value = diff.action === 'add' ? diff.after : diff.before;
  return value !== null && typeof value === 'object' ? label : `${label} ${show(value)}`;
}
