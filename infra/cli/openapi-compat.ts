/**
 * The versioning policy of docs/openapi.md, as code: compares the generated OpenAPI document with
 * the released one (docs/openapi-released.json) and sorts every change into breaking, compatible
 * or documentation only. api-smart-diff does the comparison (it resolves `$ref`s, so a change to a
 * component shows at every operation that uses it) and classifies each change. Four rules of ours
 * come on top: v1's response objects are closed (`additionalProperties: false`), so a property
 * added to a response is breaking, where the library assumes clients ignore new fields; a response
 * header made optional is breaking, as the policy says and the library does not; a rewritten
 * description or summary is documentation wherever it sits; a change the library leaves
 * unclassified counts as breaking until someone decides.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { apiCompare, type Diff } from 'api-smart-diff';

/** The document as of the last release (written by `npm run openapi -- --release`, never by hand). */
export const RELEASED_FILE = fileURLToPath(new URL('../../docs/openapi-released.json', import.meta.url));
/** What changed in each release, for client developers; its newest section is the released version. */
export const CHANGELOG_FILE = fileURLToPath(new URL('../../docs/CHANGELOG.md', import.meta.url));

/** What a change means for the version: breaking needs `/v2`; compatible is a minor release; docs a patch. */
export type ChangeKind = 'breaking' | 'compatible' | 'docs';

export interface Change {
  readonly kind: ChangeKind;
  /** Where in the document: `GET /pets response 200 application/json items.properties.categoryId`. */
  readonly where: string;
  /** What happened to it: `removed`, `added "status"`, `changed from 100 to 50`, `text changed`. */
  readonly what: string;
}

export interface Comparison {
  readonly releasedVersion: string;
  readonly changes: readonly Change[];
  readonly breaking: readonly Change[];
  /** The version a release of these changes takes, or undefined when there is nothing to release or it breaks v1. */
  readonly nextVersion: string | undefined;
}

type Json = Record<string, unknown>;

export async function readReleased(): Promise<Json> {
  return JSON.parse(await readFile(RELEASED_FILE, 'utf8')) as Json;
}

const PROSE = new Set(['description', 'summary']);
const HTTP_METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

export function compareWithReleased(released: Json, current: Json): Comparison {
  const releasedVersion = versionOf(released);
  const { diffs } = apiCompare(released, current);
  const changes: Change[] = [];
  for (const diff of diffs) {
    // The release step moves info.version itself.
    if (diff.path[0] === 'info' && diff.path[1] === 'version') continue;
    // A component is compared where it is used (the library resolves `$ref`s); its own entry only repeats that.
    if (diff.path[0] === 'components' && isReferenced(diff, released, current)) continue;
    changes.push({ kind: kindOf(diff), where: describePath(diff, diff.action === 'add' ? current : released), what: describeAction(diff) });
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

function kindOf(diff: Diff): ChangeKind {
  // Prose is documentation wherever it sits (the library misjudges it under a component only an `x-` extension uses).
  if (isProse(diff)) return 'docs';
  if (diff.type === 'breaking') return 'breaking';
  if (isResponseProperty(diff) && diff.action === 'add') return 'breaking';
  if (isResponseHeaderMadeOptional(diff)) return 'breaking';
  // A change the library cannot judge (an `x-` extension, say) is breaking until someone decides otherwise.
  if (diff.type === 'unclassified') return 'breaking';
  if (diff.type === 'annotation') return 'docs';
  // non-breaking, deprecated
  return 'compatible';
}

/** `…responses/<status>/headers/<name>/required` no longer true: a client reading the header may not find it. */
function isResponseHeaderMadeOptional(diff: Diff): boolean {
  const { path } = diff;
  return (
    path.includes('responses') && path.at(-3) === 'headers' && path.at(-1) === 'required' && diff.before === true && diff.after !== true
  );
}

/** A description or summary rewritten (not a property that happens to be called `description`). */
function isProse(diff: Diff): boolean {
  return (
    diff.action === 'replace' && PROSE.has(String(diff.path.at(-1))) && diff.path.at(-2) !== 'properties' && typeof diff.after === 'string'
  );
}

/** A property of a response body's schema: `…responses/<status>/content/<type>/schema/…/properties/<name>`. */
function isResponseProperty(diff: Diff): boolean {
  const path = diff.path.map(String);
  return path[0] === 'paths' && path.includes('responses') && path.includes('schema') && path.at(-2) === 'properties';
}

/** Whether an operation of either document refers (`$ref`) to the component a diff is in. */
function isReferenced(diff: Diff, ...documents: Json[]): boolean {
  const ref = `"#/components/${String(diff.path[1])}/${String(diff.path[2])}"`;
  return documents.some((document) => JSON.stringify(document.paths).includes(ref));
}

/** `GET /pets parameter limit schema.maximum`, `GET /pets response 200 application/json items.properties.id`. */
function describePath(diff: Diff, document: Json): string {
  const path = diff.path.map(String);
  if (path[0] !== 'paths' || path.length < 2) return path.join('.');
  const [, route, method, ...rest] = path as [string, string, string | undefined, ...string[]];
  if (!method || !HTTP_METHODS.has(method)) return [route, method, ...rest].filter(Boolean).join(' ');
  const words = [`${method.toUpperCase()} ${route}`];
  if (rest[0] === 'parameters' && rest[1] !== undefined) {
    const operation = ((document.paths as Json)[route] as Json)[method] as Json;
    const parameter = (operation.parameters as Json[] | undefined)?.[Number(rest[1])];
    words.push(parameter ? `${String(parameter.in)} parameter ${String(parameter.name)}` : `parameter ${rest[1]}`);
    rest.splice(0, 2);
  } else if (rest[0] === 'responses' && rest[1] !== undefined) {
    words.push(`response ${rest[1]}`);
    rest.splice(0, 2);
  } else if (rest[0] === 'requestBody') {
    words.push('request body');
    rest.splice(0, 1);
  }
  if (rest[0] === 'content' && rest[1] !== undefined) {
    words.push(rest[1]);
    rest.splice(0, 2);
  }
  if (rest[0] === 'schema') rest.shift();
  if (rest.length > 0) words.push(rest.join('.'));
  return words.join(' ');
}

function describeAction(diff: Diff): string {
  const show = (value: unknown) => {
    if (value !== null && typeof value === 'object') return '…';
    const text = JSON.stringify(value);
    return text.length > 40 ? `${text.slice(0, 39)}…"` : text;
  };
  const label =
    diff.type === 'deprecated' ? 'deprecated' : diff.action === 'add' ? 'added' : diff.action === 'remove' ? 'removed' : 'changed';
  if (isProse(diff)) return 'text changed';
  if (diff.action === 'replace' || diff.action === 'rename') return `${label} from ${show(diff.before)} to ${show(diff.after)}`;
  const value = diff.action === 'add' ? diff.after : diff.before;
  return value !== null && typeof value === 'object' ? label : `${label} ${show(value)}`;
}
