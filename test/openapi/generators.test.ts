/**
 * The document in the client generators client developers use (docs/clients.md): each generates a
 * client from openapi.json into a temporary folder, and a small program written against each (a
 * request, then a `switch` on the error's `code` with an exhaustiveness check and the status that
 * code implies) type-checks under `strict`, all in one run of the repository's tsc. The document a
 * stage serves generates the same types as the committed one.
 */
import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { createRequire, registerHooks, stripTypeScriptTypes } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeCursor } from '#lib/http/cursor.ts';
import { openApiMappingTemplate } from '../../infra/openapi/serve.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const OPENAPI_FILE = path.join(ROOT, 'openapi.json');

/** The generators, from their package (test/generators/): typed here, as only what this file calls. */
interface Generators {
  openapiTypescript(document: object): Promise<unknown>;
  astToString(ast: unknown): string;
  orval(options: object): Promise<void>;
  openapiZodClient(args: object): Promise<unknown>;
  heyApi(config: object): Promise<unknown>;
}
const GENERATORS_PACKAGE = 'petstore-client-generators';
const generatorsPackage = createRequire(path.join(ROOT, 'test/generators/package.json'));

// @hey-api/openapi-ts builds its code with TypeScript 5's compiler API, like openapi-typescript, but
// npm may install it beside the repository's TypeScript 7, which has none: it gets the package's own.
registerHooks({
  resolve: (specifier, context, next) =>
    next(
      specifier === 'typescript' && context.parentURL?.includes('/node_modules/@hey-api/')
        ? pathToFileURL(generatorsPackage.resolve('typescript')).href
        : specifier,
      context,
    ),
});
const load = (): Promise<Generators> => import(GENERATORS_PACKAGE);

/** The error cases every program handles, in one `switch`: its `default` proves the list exhaustive. */
const explain = (error: string) => `
  switch (${error}.code) {
    case 'validation_failed':
    case 'invalid_cursor': {
      const status: 400 = ${error}.status;
      return \`\${status}: fix the request (\${${error}.message})\`;
    }
    case 'unauthorized':
      return 'send a valid API key';
    case 'forbidden':
      return 'blocked: do not retry';
    case 'too_many_requests':
    case 'service_unavailable':
      return 'retry after Retry-After';
    case 'gateway_timeout':
      return 'retry a read or a keyed create, backing off';
    case 'internal_error': {
      const status: 500 = ${error}.status;
      return \`\${status}: report it with the request id\`;
    }
    default:
      return unreachable(${error});
  }`;

const UNREACHABLE = `
function unreachable(value: never): never {
  throw new Error(\`an error the contract does not declare: \${JSON.stringify(value)}\`);
}
`;

/** Per generator: what it writes into its folder, and a program against it. */
const GENERATORS: Record<string, { generate(dir: string): Promise<void>; program: string }> = {
  'openapi-typescript': {
    generate: async (dir) =>
      writeFile(path.join(dir, 'schema.ts'), await openapiTypescript(JSON.parse(await readFile(OPENAPI_FILE, 'utf8')))),
    program: `import createClient from 'openapi-fetch';
import type { paths } from './schema.ts';

const client = createClient<paths>({ baseUrl: 'http://127.0.0.1:3000/v1' });

export async function firstPage(): Promise<string> {
  const { data, error, response } = await client.GET('/pets', { params: { query: { limit: 10, status: 'available' } } });
  if (error === undefined) return \`\${data.length} animals; next page: \${response.headers.get('Link') ?? 'none'}\`;
${explain('error')}
}`,
  },
  orval: {
    generate: async (dir) => {
      await (await load()).orval({ input: { target: OPENAPI_FILE }, output: { target: path.join(dir, 'client.ts'), client: 'fetch' } });
    },
    program: `import { listPets } from './client.ts';

export async function firstPage(): Promise<string> {
  const res = await listPets({ limit: 10, status: 'available' });
  if (res.status === 200) return \`\${res.data.length} animals; next page: \${res.headers.get('Link') ?? 'none'}\`;
  const error = res.data;
${explain('error')}
}`,
  },
  'openapi-zod-client': {
    generate: async (dir) => {
      const openApiDoc = JSON.parse(await readFile(OPENAPI_FILE, 'utf8'));
      // withAlias: as its command line does, a method per operationId.
      await (await load()).openapiZodClient({ openApiDoc, distPath: path.join(dir, 'client.ts'), options: { withAlias: true } });
    },
    program: `import { isErrorFromAlias } from '@zodios/core';
import { api, createApiClient } from './client.ts';

const client = createApiClient('http://127.0.0.1:3000/v1');

export async function firstPage(): Promise<string> {
  try {
    const pets = await client.listPets({ queries: { limit: 10, status: 'available' } });
    return \`\${pets.length} animals\`;
  } catch (thrown) {
    if (!isErrorFromAlias(api.api, 'listPets', thrown)) throw thrown;
    const error = thrown.response.data;
${explain('error')}
  }
}`,
  },
  '@hey-api/openapi-ts': {
    generate: async (dir) => {
      await (await load()).heyApi({ input: OPENAPI_FILE, output: path.join(dir, 'client'), logs: { level: 'silent' } });
    },
    program: `import { listPets } from './client/index.ts';

export async function firstPage(): Promise<string> {
  const { data, error, response } = await listPets({ baseUrl: 'http://127.0.0.1:3000/v1', query: { limit: 10, status: 'available' } });
  if (error === undefined) return \`\${data?.length} animals; next page: \${response?.headers.get('Link') ?? 'none'}\`;
${explain('error')}
}`,
  },
};

async function openapiTypescript(document: object): Promise<string> {
  const { openapiTypescript: generate, astToString } = await load();
  return astToString(await generate(document));
}

/** Where openapi-zod-client's own dependencies are: its client needs zod 3 and @zodios/core, not the repository's zod 4. */
function zodClientPaths(): Record<string, string[]> {
  const require = createRequire(generatorsPackage.resolve('openapi-zod-client'));
  return Object.fromEntries(['zod', '@zodios/core'].map((name) => [name, [path.dirname(require.resolve(`${name}/package.json`))]]));
}

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'petstore-clients-'));
  await symlink(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'));
  const generated = await Promise.allSettled(
    Object.entries(GENERATORS).map(async ([name, { generate, program }], i) => {
      const folder = path.join(dir, `client-${i}`);
      await mkdir(folder);
      await generate(folder);
      await writeFile(path.join(folder, 'program.ts'), `// ${name}\n${program}\n${UNREACHABLE}`);
    }),
  );
  for (const outcome of generated) if (outcome.status === 'rejected') throw outcome.reason;
  const compilerOptions = {
    strict: true,
    noEmit: true,
    target: 'ES2024',
    lib: ['ES2024', 'DOM'],
    module: 'preserve',
    moduleResolution: 'bundler',
    allowImportingTsExtensions: true,
    skipLibCheck: true,
    types: [],
    paths: zodClientPaths(),
  };
  await writeFile(path.join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions, include: ['client-*/**/*.ts'] }));
}, 120_000);

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('clients generated from openapi.json', () => {
  it(`type-check under strict and narrow an error on its code: ${Object.keys(GENERATORS).join(', ')}`, () => {
    const tsc = spawnSync(process.execPath, [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', dir], { encoding: 'utf8' });
    expect(`${tsc.stdout}${tsc.stderr}`).toBe('');
    expect(tsc.status).toBe(0);
  });

  it("reach the next page with docs/clients.md's one line: the cursor of the service's Link", async () => {
    const doc = await readFile(path.join(ROOT, 'docs/clients.md'), 'utf8');
    const line = /^const nextCursor = (.*);$/m.exec(doc)?.[1];
    expect(line).toBeDefined();
    const nextCursor = new Function(`return ${stripTypeScriptTypes(`(${line})`)}`)() as (link: string | null) => string | null;
    const cursor = encodeCursor('available', 42);
    const query = new URLSearchParams({ limit: '5', status: 'available', cursor });
    expect(nextCursor(`<https://api.example/v1/pets?${query}>; rel="next"`)).toBe(cursor);
    expect(nextCursor(`<pets?limit=5&cursor=${cursor}>; rel="next"`)).toBe(cursor);
    expect(nextCursor(null)).toBeNull();
  });

  it('are the same from the document a stage serves', async () => {
    const served = JSON.parse(openApiMappingTemplate());
    expect(await openapiTypescript(served)).toBe(await readFile(path.join(dir, 'client-0', 'schema.ts'), 'utf8'));
  });
});
