/**
 * The versioning policy (docs/openapi.md, "Versions"): the generated document is compared with the
 * released one, a change that breaks v1 fails naming it, a compatible one passes and says what
 * the changelog needs. Fixtures are the real document with one small edit each.
 */
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../infra/openapi/document.ts';
import { API_VERSION } from '../../infra/openapi/contract.ts';
import { operations } from '#lib/operations.ts';
import {
  CHANGELOG_FILE,
  type Comparison,
  bump,
  compareWithReleased,
  readReleased,
  summarise,
  versionOf,
} from '../../infra/cli/openapi-compat.ts';

// biome-ignore lint/suspicious/noExplicitAny: the fixtures edit the document freely by path
type Json = Record<string, any>;

const generated = (): Json => JSON.parse(JSON.stringify(buildOpenApiDocument())) as Json;

/**
 * `METHOD /path` of every operation whose request body (or whose responses) use the component
 * schema `name`, directly or inside another component: a change to it counts at each of them.
 */
function operationsUsing(name: string, part: 'requestBody' | 'responses', d: Json = generated()): string[] {
  const uses = (node: unknown, seen: Set<string>): boolean =>
    [...JSON.stringify(node ?? null).matchAll(/#\/components\/schemas\/(\w+)"/g)].some(
      ([, ref = '']) => ref === name || (!seen.has(ref) && uses(d.components.schemas[ref], seen.add(ref))),
    );
  return Object.entries(d.paths as Json).flatMap(([path, item]) =>
    Object.entries(item as Json)
      .filter(([, operation]) => uses(operation[part], new Set()))
      .map(([method]) => `${method.toUpperCase()} ${path}`),
  );
}

/** The generated document compared with itself after `edit`. */
function afterEdit(edit: (document: Json) => void): Comparison {
  const before = generated();
  const after = structuredClone(before);
  edit(after);
  return compareWithReleased(before, after);
}

describe('the generated document against the released contract', () => {
  it('breaks nothing in v1, and says what to add to the changelog when it changed', async () => {
    const comparison = compareWithReleased(await readReleased(), generated());
    expect(comparison.breaking, summarise(comparison)).toEqual([]);
    if (comparison.changes.length > 0) console.info(summarise(comparison));
  });

  it('carries the released info.version, which only the release step moves', async () => {
    expect(versionOf(await readReleased())).toBe(API_VERSION);
    expect(generated().info.version).toBe(API_VERSION);
  });

  it("has the released version as the changelog's newest section, which begins at 1.0.0", async () => {
    const sections = [...(await readFile(CHANGELOG_FILE, 'utf8')).matchAll(/^## (\d+\.\d+\.\d+)\b/gm)].map((m) => m[1]);
    expect(sections[0]).toBe(API_VERSION);
    expect(sections.at(-1)).toBe('1.0.0');
  });
});

describe('breaking changes fail, naming the change', () => {
  it('a response field removed', () => {
    const comparison = afterEdit((d) => {
      delete d.components.schemas.Pet.properties.categoryId;
      d.components.schemas.Pet.required = d.components.schemas.Pet.required.filter((f: string) => f !== 'categoryId');
    });
    expect(comparison.nextVersion).toBeUndefined();
    expect(summarise(comparison)).toContain('breaks v1');
    const returning = operationsUsing('Pet', 'responses');
    expect(returning.length).toBeGreaterThan(1);
    const removed = comparison.breaking.filter((c) => c.where.endsWith('properties.categoryId') && c.what === 'removed');
    expect(removed.map((c) => c.where.split(' response ')[0])).toEqual(returning);
  });

  it('a required response header made optional', () => {
    const comparison = afterEdit((d) => {
      d.components.headers.Location.required = false;
    });
    expect(comparison.breaking.map((c) => `${c.where}: ${c.what}`)).toEqual(
      operations
        .filter((o) => o.success.headers.includes('Location'))
        .map((o) => `${o.method} ${o.resource} response ${o.success.status} header Location required: changed from true to false`),
    );
  });

  it("limit's maximum narrowed", () => {
    const comparison = afterEdit((d) => {
      d.paths['/pets'].get.parameters.find((p: Json) => p.name === 'limit').schema.maximum = 50;
    });
    expect(comparison.breaking).toEqual([
      { kind: 'breaking', where: 'GET /pets query parameter limit maximum', what: 'changed from 100 to 50' },
    ]);
  });

  it("NewPet's status made required: breaking in every operation that takes a NewPet", () => {
    const comparison = afterEdit((d) => {
      d.components.schemas.NewPet.required.push('status');
    });
    const taking = operationsUsing('NewPet', 'requestBody');
    expect(taking).not.toEqual([]);
    expect(comparison.breaking).toEqual(
      taking.map((op) => ({
        kind: 'breaking',
        where: `${op} request body application/json properties.status required`,
        what: 'made required',
      })),
    );
  });

  it('a response field added: v1 response objects are closed (additionalProperties: false)', () => {
    const comparison = afterEdit((d) => {
      d.components.schemas.Pet.properties.tag = { type: 'string' };
    });
    expect(summarise(comparison)).toContain('GET /pets/{petId} response 200 application/json properties.tag: added');
    expect(comparison.nextVersion).toBeUndefined();
  });
});

describe('a change is judged by the direction it is used in', () => {
  it('a new PetStatus value: compatible in the requests that send it, breaking in the responses that return it', () => {
    const comparison = afterEdit((d) => {
      d.components.schemas.PetStatus.enum.push('reserved');
    });
    const kinds = (where: string) => comparison.changes.filter((c) => c.where.startsWith(where)).map((c) => c.kind);
    expect(kinds('GET /pets query parameter status')).toEqual(['compatible']);
    for (const op of operationsUsing('PetStatus', 'requestBody')) expect(kinds(`${op} request body`)).toEqual(['compatible']);
    const returning = operationsUsing('PetStatus', 'responses');
    expect(returning.length).toBeGreaterThan(1);
    for (const op of returning) expect(kinds(`${op} response`)).toEqual(['breaking']);
    expect(comparison.nextVersion).toBeUndefined();
  });
});

describe('compatible changes pass and say what to add to the changelog', () => {
  it('an optional response header added', () => {
    const comparison = afterEdit((d) => {
      d.paths['/pets'].post.responses['201'].headers['X-Pet-Revision'] = {
        description: 'The revision of the animal.',
        required: false,
        schema: { type: 'string' },
      };
    });
    expect(comparison.breaking).toEqual([]);
    expect(comparison.changes).toEqual([{ kind: 'compatible', where: 'POST /pets response 201 header X-Pet-Revision', what: 'added' }]);
    expect(comparison.nextVersion).toBe(bump(API_VERSION, 'minor'));
    expect(summarise(comparison)).toContain(`Add to docs/CHANGELOG.md under "## ${bump(API_VERSION, 'minor')}"`);
  });

  it('an operation added', () => {
    const comparison = afterEdit((d) => {
      // TRACE: no operation of the API can have it (HttpMethod in lib/operations/operation.ts).
      d.paths['/pets/{petId}'].trace = {
        operationId: 'traceFictionalPet',
        summary: 'Nothing real',
        security: [{ bearerAuth: [] }],
        responses: { 204: { description: 'Nothing real.' } },
      };
    });
    expect(comparison.changes).toEqual([{ kind: 'compatible', where: 'TRACE /pets/{petId}', what: 'added' }]);
    expect(comparison.nextVersion).toBe(bump(API_VERSION, 'minor'));
  });

  it('a description rewritten is a patch release', () => {
    const comparison = afterEdit((d) => {
      d.paths['/pets'].get.description += ' Pages are stable.';
    });
    expect(comparison.changes).toEqual([{ kind: 'docs', where: 'GET /pets description', what: 'text changed' }]);
    expect(comparison.nextVersion).toBe(bump(API_VERSION, 'patch'));
  });

  it('no change: nothing to release', () => {
    expect(afterEdit(() => {}).nextVersion).toBeUndefined();
    expect(bump('1.4.2', 'minor')).toBe('1.5.0');
    expect(bump('1.4.2', 'patch')).toBe('1.4.3');
  });
});
