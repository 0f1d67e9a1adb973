// The generators' entry points, resolved from this package, whose dependencies npm installs apart
// from the repository's (test/openapi/generators.test.ts).
export { createClient as heyApi } from '@hey-api/openapi-ts';
export { astToString, default as openapiTypescript } from 'openapi-typescript';
export { generateZodClientFromOpenAPI as openapiZodClient } from 'openapi-zod-client';
export { generate as orval } from 'orval';
