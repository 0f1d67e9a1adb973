/**
 * The versioning policy (docs/openapi.md, "Versions"): the generated document is compared with the
 * released one, a change that breaks v1 fails naming it, a compatible one passes and says what
 * the changelog needs. Fixtures are the real document with one small edit each.
 */
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '#lib/openapi/document.ts';
import { API_VERSION } from '#lib/openapi/contract.ts';
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
    const message = summarise(comparison);
    expect(message).toContain('breaks v1');
    for (const where of [
      'GET /pets response 200 application/json items.properties.categoryId: removed',
      'POST /pets response 201 application/json properties.categoryId: removed',
      'GET /pets/{petId} response 200 application/json properties.categoryId: removed',
    ]) {
      expect(message).toContain(where);
    }
  });

  it('a required response header made optional', () => {
    const comparison = afterEdit((d) => {
      d.components.headers.Location.required = false;
    });
    expect(comparison.breaking.map((c) => `${c.where}: ${c.what}`)).toEqual([
      'POST /pets response 201 header Location required: changed from true to false',
    ]);
  });

  it("limit's maximum narrowed", () => {
    const comparison = afterEdit((d) => {
      d.paths['/pets'].get.parameters.find((p: Json) => p.name === 'limit').schema.maximum = 50;
    });
    expect(comparison.breaking).toEqual([
      { kind: 'breaking', where: 'GET /pets query parameter limit maximum', what: 'changed from 100 to 50' },
    ]);
  });

  it('status made required on create', () => {
    const comparison = afterEdit((d) => {
      d.components.schemas.NewPet.required.push('status');
    });
    expect(comparison.breaking).toEqual([
      { kind: 'breaking', where: 'POST /pets request body application/json properties.status required', what: 'made required' },
    ]);
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
    expect(kinds('POST /pets request body')).toEqual(['compatible']);
    expect(kinds('GET /pets/{petId} response 200')).toEqual(['breaking']);
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
