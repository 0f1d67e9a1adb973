/**
 * The versioning policy (docs/openapi.md, "Versions") as cases: one small edit each to the released
 * document, the verdict the policy gives it and the places the check must name. The verdicts
 * come from the policy's rule, not from any library: every request valid under the released document
 * is still accepted with the same meaning, every response the service sends is still valid under it
 * (v1's response objects are closed, so a strict validator built from the release is the judge), and what
 * a generated client names (paths, operations, parameters, fields) keeps its name.
 *
 * `reverse` compares the edited document to the released one instead, so one edit gives both
 * directions of a change (a header made optional, and made required).
 *
 * The table in docs/openapi.md is generated from this list (`policyTable`); a test keeps them equal.
 */

// biome-ignore lint/suspicious/noExplicitAny: the edits reach into the document freely by path
export type Json = Record<string, any>;

/** breaking needs `/v2`; compatible is a minor release; docs is a patch (nothing a client relies on changed). */
export type Verdict = 'breaking' | 'compatible' | 'docs';

export interface CorpusCase {
  /** The node changed, as the policy table names it. */
  readonly node: string;
  /** What happened to it, read from the released document to the new one. */
  readonly change: string;
  readonly verdict: Verdict;
  /** Why, for a client developer. */
  readonly why: string;
  /** The edit, applied to a copy of the released document. */
  readonly edit: (document: Json) => void;
  /** Compare the edited document (as released) with the released one (as new). */
  readonly reverse?: boolean;
  /** Places the check must name among the changes of this verdict (a place, or a place and its detail, or a whole path's template). */
  readonly places: readonly string[];
}

const op = (d: Json, method: string, path: string): Json => d.paths[path][method];
const param = (d: Json, method: string, path: string, name: string): Json =>
  op(d, method, path).parameters.find((p: Json) => p.name === name);
const schema = (d: Json, name: string): Json => d.components.schemas[name];
const response = (d: Json, method: string, path: string, status: string): Json => op(d, method, path).responses[status];

/**
 * Additions the API will never have, so that no real operation ever meets a case: a path no
 * resource takes, and TRACE, which no operation can have (HttpMethod in lib/operations/operation.ts).
 */
const FICTIONAL_PATH = '/fictional-things';

const LIST = 'GET /pets';
const CREATE = 'POST /pets';
const GET = 'GET /pets/{petId}';
const STAGING = 'https://{apiId}.execute-api.{region}.amazonaws.com/staging/v1';
const NEW_PET = `${CREATE} request body application/json`;
const PET = `${GET} response 200 application/json`;

const errorResponse = (description: string, code: string, status: number): Json => ({
  description,
  headers: { 'X-Request-Id': { $ref: '#/components/headers/XRequestId' } },
  content: {
    'application/json': {
      schema: {
        allOf: [
          { $ref: '#/components/schemas/Error' },
          { type: 'object', properties: { code: { enum: [code] }, status: { const: status } } },
        ],
      },
    },
  },
});

/** Replaces a `$ref` to a component schema by a copy of it, which means the same. */
const inline = (d: Json, holder: Json, key: string) => {
  holder[key] = structuredClone(schema(d, String(holder[key].$ref).split('/').at(-1) as string));
};

export const CORPUS: readonly CorpusCase[] = [
  // Paths and operations
  {
    node: 'path',
    change: 'added',
    verdict: 'compatible',
    why: 'a new address; no client calls it yet',
    edit: (d) => {
      d.paths[FICTIONAL_PATH] = {
        get: { operationId: 'listFictionalThings', security: [{ bearerAuth: [] }], responses: { 200: { description: 'Nothing real.' } } },
      };
    },
    places: [`GET ${FICTIONAL_PATH}`],
  },
  {
    node: 'path',
    change: 'removed',
    verdict: 'breaking',
    why: 'clients calling it get 404',
    edit: (d) => {
      delete d.paths['/pets/{petId}'];
    },
    // Whatever methods it has: a whole path is named by them, then its template.
    places: ['/pets/{petId}'],
  },
  {
    node: 'path parameter',
    change: 'renamed in the path template (`{petId}` to `{id}`)',
    verdict: 'breaking',
    why: 'generated clients name their arguments after it',
    edit: (d) => {
      const item = d.paths['/pets/{petId}'];
      item.get.parameters[0].name = 'id';
      delete d.paths['/pets/{petId}'];
      d.paths['/pets/{id}'] = item;
    },
    places: [`${GET} path parameter petId`],
  },
  {
    node: 'path parameter',
    change: 'moved from the operation to the path item',
    verdict: 'docs',
    why: 'the same request; the document is only written differently',
    edit: (d) => {
      const item = d.paths['/pets/{petId}'];
      item.parameters = item.get.parameters;
      delete item.get.parameters;
    },
    places: ['document'],
  },
  {
    node: 'operation',
    change: 'added',
    verdict: 'compatible',
    why: 'a new method on a path; no client calls it yet',
    edit: (d) => {
      d.paths['/pets/{petId}'].trace = {
        operationId: 'traceFictionalPet',
        security: [{ bearerAuth: [] }],
        parameters: structuredClone(op(d, 'get', '/pets/{petId}').parameters),
        responses: { 204: { description: 'Nothing real.' } },
      };
    },
    places: ['TRACE /pets/{petId}'],
  },
  {
    node: 'operation',
    change: 'removed',
    verdict: 'breaking',
    why: 'clients calling it get 405',
    edit: (d) => {
      delete d.paths['/pets'].post;
    },
    places: [CREATE],
  },
  {
    node: 'operation',
    change: '`operationId` changed',
    verdict: 'breaking',
    why: 'generated clients name the method after it',
    edit: (d) => {
      op(d, 'post', '/pets').operationId = 'addPet';
    },
    places: [`${CREATE} operationId`],
  },
  {
    node: 'operation',
    change: 'its tag changed',
    verdict: 'breaking',
    why: 'generated clients group operations into classes by tag',
    edit: (d) => {
      op(d, 'get', '/pets').tags = ['animals'];
    },
    places: [`${LIST} tags`],
  },
  {
    node: 'operation',
    change: 'marked deprecated',
    verdict: 'compatible',
    why: 'it keeps working until its sunset, announced a year or more ahead',
    edit: (d) => {
      op(d, 'get', '/pets').deprecated = true;
    },
    places: [`${LIST} deprecated`],
  },
  {
    node: 'operation',
    change: 'no longer deprecated',
    verdict: 'compatible',
    why: 'it keeps working; nothing a client sends or receives changes',
    edit: (d) => {
      delete op(d, 'get', '/pets/{petId}').deprecated;
    },
    places: [`${GET} deprecated`],
  },
  // Parameters
  {
    node: 'query parameter',
    change: 'added, optional',
    verdict: 'compatible',
    why: 'requests without it mean what they meant',
    edit: (d) => {
      op(d, 'get', '/pets').parameters.unshift({ name: 'name', in: 'query', required: false, schema: { type: 'string' } });
    },
    places: [`${LIST} query parameter name`],
  },
  {
    node: 'query parameter',
    change: 'added, required',
    verdict: 'breaking',
    why: 'requests without it are refused',
    edit: (d) => {
      op(d, 'get', '/pets').parameters.push({ name: 'name', in: 'query', required: true, schema: { type: 'string' } });
    },
    places: [`${LIST} query parameter name`],
  },
  {
    node: 'query parameter',
    change: 'removed',
    verdict: 'breaking',
    why: 'requests that send it lose its meaning',
    edit: (d) => {
      op(d, 'get', '/pets').parameters.splice(2, 1);
    },
    places: [`${LIST} query parameter cursor`],
  },
  {
    node: 'query parameter',
    change: 'renamed',
    verdict: 'breaking',
    why: 'requests that send the old name lose its meaning',
    edit: (d) => {
      param(d, 'get', '/pets', 'limit').name = 'pageSize';
    },
    places: [`${LIST} query parameter limit`],
  },
  {
    node: 'query parameter',
    change: 'moved to a header',
    verdict: 'breaking',
    why: 'requests that send it in the query lose its meaning',
    edit: (d) => {
      param(d, 'get', '/pets', 'cursor').in = 'header';
    },
    places: [`${LIST} query parameter cursor`],
  },
  {
    node: 'query parameter',
    change: 'made required',
    verdict: 'breaking',
    why: 'requests without it are refused',
    edit: (d) => {
      param(d, 'get', '/pets', 'limit').required = true;
    },
    places: [`${LIST} query parameter limit required`],
  },
  {
    node: 'query parameter',
    change: 'made optional',
    verdict: 'compatible',
    why: 'requests that send it mean what they meant',
    edit: (d) => {
      param(d, 'get', '/pets', 'limit').required = true;
    },
    reverse: true,
    places: [`${LIST} query parameter limit required`],
  },
  {
    node: 'header parameter',
    change: 'added, optional',
    verdict: 'compatible',
    why: 'requests without it mean what they meant',
    edit: (d) => {
      op(d, 'post', '/pets').parameters.unshift({ name: 'X-Trace-Id', in: 'header', required: false, schema: { type: 'string' } });
    },
    places: [`${CREATE} header parameter X-Trace-Id`],
  },
  {
    node: 'header parameter',
    change: 'added, required',
    verdict: 'breaking',
    why: 'requests without it are refused',
    edit: (d) => {
      op(d, 'post', '/pets').parameters.push({ name: 'X-Trace-Id', in: 'header', required: true, schema: { type: 'string' } });
    },
    places: [`${CREATE} header parameter X-Trace-Id`],
  },
  {
    node: 'header parameter',
    change: 'removed',
    verdict: 'breaking',
    why: 'requests that send it lose its meaning (a retry is no longer safe)',
    edit: (d) => {
      delete op(d, 'post', '/pets').parameters;
    },
    places: [`${CREATE} header parameter Idempotency-Key`],
  },
  {
    node: 'path parameter',
    change: '`type` changed (integer to string)',
    verdict: 'breaking',
    why: 'generated clients type the argument after it',
    edit: (d) => {
      param(d, 'get', '/pets/{petId}', 'petId').schema = { type: 'string', minLength: 1 };
    },
    places: [`${GET} path parameter petId type`],
  },
  {
    node: 'path parameter',
    change: '`format` narrowed (int64 to int32)',
    verdict: 'breaking',
    why: 'identifiers above 2^31 are refused',
    edit: (d) => {
      param(d, 'get', '/pets/{petId}', 'petId').schema.format = 'int32';
    },
    places: [`${GET} path parameter petId format`],
  },
  {
    node: 'query parameter',
    change: '`format` widened (int32 to int64)',
    verdict: 'compatible',
    why: 'every value sent before is still accepted',
    edit: (d) => {
      param(d, 'get', '/pets', 'limit').schema.format = 'int64';
    },
    places: [`${LIST} query parameter limit format`],
  },
  {
    node: 'request bound',
    change: '`maximum` raised',
    verdict: 'compatible',
    why: 'every value sent before is still accepted',
    edit: (d) => {
      param(d, 'get', '/pets', 'limit').schema.maximum = 200;
    },
    places: [`${LIST} query parameter limit maximum`],
  },
  {
    node: 'request bound',
    change: '`maximum` lowered',
    verdict: 'breaking',
    why: 'values sent before are refused',
    edit: (d) => {
      param(d, 'get', '/pets', 'limit').schema.maximum = 50;
    },
    places: [`${LIST} query parameter limit maximum`],
  },
  {
    node: 'request bound',
    change: '`minimum` raised',
    verdict: 'breaking',
    why: 'values sent before are refused',
    edit: (d) => {
      param(d, 'get', '/pets', 'limit').schema.minimum = 5;
    },
    places: [`${LIST} query parameter limit minimum`],
  },
  {
    node: 'request bound',
    change: '`maxLength` lowered',
    verdict: 'breaking',
    why: 'values sent before are refused',
    edit: (d) => {
      param(d, 'get', '/pets', 'cursor').schema.maxLength = 64;
    },
    places: [`${LIST} query parameter cursor maxLength`],
  },
  {
    node: 'request bound',
    change: '`maxLength` raised',
    verdict: 'compatible',
    why: 'every value sent before is still accepted',
    edit: (d) => {
      schema(d, 'NewPet').properties.name.maxLength = 300;
    },
    places: [`${NEW_PET} properties.name maxLength`],
  },
  {
    node: 'request bound',
    change: '`pattern` removed',
    verdict: 'compatible',
    why: 'every value sent before is still accepted',
    edit: (d) => {
      delete param(d, 'post', '/pets', 'Idempotency-Key').schema.pattern;
    },
    places: [`${CREATE} header parameter Idempotency-Key pattern`],
  },
  {
    node: 'request bound',
    change: '`pattern` changed',
    verdict: 'breaking',
    why: 'values sent before may be refused (no check can prove one pattern wider than another)',
    edit: (d) => {
      param(d, 'post', '/pets', 'Idempotency-Key').schema.pattern = '^[!#-~]{1,64}$';
    },
    places: [`${CREATE} header parameter Idempotency-Key pattern`],
  },
  {
    node: 'default',
    change: 'changed',
    verdict: 'breaking',
    why: 'a request that leaves the value out means something else',
    edit: (d) => {
      param(d, 'get', '/pets', 'limit').schema.default = 50;
    },
    places: [`${LIST} query parameter limit default`],
  },
  {
    node: 'default',
    change: 'removed',
    verdict: 'breaking',
    why: 'a request that leaves the value out no longer has a stated meaning',
    edit: (d) => {
      delete param(d, 'get', '/pets', 'limit').schema.default;
    },
    places: [`${LIST} query parameter limit default`],
  },
  {
    node: 'default',
    change: 'added',
    verdict: 'breaking',
    why: 'a request that leaves the value out means something else (a created animal would get a status)',
    edit: (d) => {
      schema(d, 'NewPet').properties.status = { $ref: '#/components/schemas/PetStatus', default: 'available' };
    },
    places: [`${NEW_PET} properties.status default`],
  },
  {
    node: 'request enum',
    change: 'value added (an enum only requests use)',
    verdict: 'compatible',
    why: 'every value sent before is still accepted',
    edit: (d) => {
      param(d, 'get', '/pets', 'status').schema = { type: 'string', enum: ['available', 'pending', 'sold', 'reserved'] };
    },
    places: [`${LIST} query parameter status enum`],
  },
  {
    node: 'request enum',
    change: 'value removed',
    verdict: 'breaking',
    why: 'requests sending that value are refused',
    edit: (d) => {
      param(d, 'get', '/pets', 'status').schema = { type: 'string', enum: ['available', 'pending'] };
    },
    places: [`${LIST} query parameter status enum`],
  },
  {
    node: '`$ref` or inline',
    change: 'a parameter schema written inline instead of by `$ref`',
    verdict: 'docs',
    why: 'the same schema, written another way',
    edit: (d) => {
      inline(d, param(d, 'get', '/pets', 'status'), 'schema');
    },
    places: ['document'],
  },
  {
    node: '`$ref` or inline',
    change: 'an inline parameter schema moved to a new component',
    verdict: 'compatible',
    why: 'the same parameter; generated clients gain a type named after the component',
    edit: (d) => {
      const limit = param(d, 'get', '/pets', 'limit');
      d.components.schemas.Limit = limit.schema;
      limit.schema = { $ref: '#/components/schemas/Limit' };
    },
    places: ['component schema Limit'],
  },
  {
    node: '`$ref` or inline',
    change: 'a component schema renamed',
    verdict: 'breaking',
    why: 'generated clients name their types after the components',
    edit: (d) => {
      d.components.schemas.Animal = schema(d, 'Pet');
      delete d.components.schemas.Pet;
      const text = JSON.stringify(d.paths).replaceAll('#/components/schemas/Pet"', '#/components/schemas/Animal"');
      d.paths = JSON.parse(text);
      d.components.schemas.Pets.items.$ref = '#/components/schemas/Animal';
    },
    places: ['component schema Pet'],
  },
  // Request bodies
  {
    node: 'request body',
    change: 'made optional',
    verdict: 'compatible',
    why: 'requests with a body are accepted as before',
    edit: (d) => {
      op(d, 'post', '/pets').requestBody.required = false;
    },
    places: [`${CREATE} request body required`],
  },
  {
    node: 'request body',
    change: 'made required',
    verdict: 'breaking',
    why: 'requests without a body are refused',
    edit: (d) => {
      op(d, 'post', '/pets').requestBody.required = false;
    },
    reverse: true,
    places: [`${CREATE} request body required`],
  },
  {
    node: 'request media type',
    change: 'added',
    verdict: 'compatible',
    why: 'requests in the old media type are accepted as before',
    edit: (d) => {
      const content = op(d, 'post', '/pets').requestBody.content;
      content['application/x-www-form-urlencoded'] = structuredClone(content['application/json']);
    },
    places: [`${CREATE} request body application/x-www-form-urlencoded`],
  },
  {
    node: 'request media type',
    change: 'removed',
    verdict: 'breaking',
    why: 'requests in that media type are refused (415)',
    edit: (d) => {
      const content = op(d, 'post', '/pets').requestBody.content;
      content['application/merge-patch+json'] = content['application/json'];
      delete content['application/json'];
    },
    places: [`${CREATE} request body application/json`],
  },
  {
    node: 'request field',
    change: 'added, optional',
    verdict: 'compatible',
    why: 'requests without it mean what they meant',
    edit: (d) => {
      schema(d, 'NewPet').properties.tag = { type: 'string' };
    },
    places: [`${NEW_PET} properties.tag`],
  },
  {
    node: 'request field',
    change: 'added, required',
    verdict: 'breaking',
    why: 'requests without it are refused',
    edit: (d) => {
      schema(d, 'NewPet').properties.tag = { type: 'string' };
      schema(d, 'NewPet').required.push('tag');
    },
    places: [`${NEW_PET} properties.tag`],
  },
  {
    node: 'request field',
    change: 'removed',
    verdict: 'breaking',
    why: 'requests that send it are refused (the object is closed)',
    edit: (d) => {
      delete schema(d, 'NewPet').properties.status;
    },
    places: [`${NEW_PET} properties.status`],
  },
  {
    node: 'request field',
    change: 'made required',
    verdict: 'breaking',
    why: 'requests without it are refused (`status` made required on create)',
    edit: (d) => {
      schema(d, 'NewPet').required.push('status');
    },
    places: [`${NEW_PET} properties.status required`],
  },
  {
    node: 'request field',
    change: 'made optional',
    verdict: 'compatible',
    why: 'requests that send it are accepted as before',
    edit: (d) => {
      schema(d, 'NewPet').required.pop();
    },
    places: [`${NEW_PET} properties.categoryId required`],
  },
  {
    node: 'request field',
    change: '`type` changed',
    verdict: 'breaking',
    why: 'requests that send the old type are refused',
    edit: (d) => {
      schema(d, 'NewPet').properties.categoryId = { type: 'string', minLength: 1 };
    },
    places: [`${NEW_PET} properties.categoryId type`],
  },
  {
    node: 'nullability',
    change: 'a request field made nullable',
    verdict: 'compatible',
    why: 'every value sent before is still accepted',
    edit: (d) => {
      schema(d, 'NewPet').properties.name.type = ['string', 'null'];
    },
    places: [`${NEW_PET} properties.name type`],
  },
  {
    node: 'nullability',
    change: 'a request field no longer nullable',
    verdict: 'breaking',
    why: 'requests sending `null` are refused',
    edit: (d) => {
      schema(d, 'NewPet').properties.name.type = ['string', 'null'];
    },
    reverse: true,
    places: [`${NEW_PET} properties.name type`],
  },
  {
    node: 'additionalProperties',
    change: 'a request object opened (`false` to `true`)',
    verdict: 'compatible',
    why: 'every body sent before is still accepted',
    edit: (d) => {
      schema(d, 'NewPet').additionalProperties = true;
    },
    places: [`${NEW_PET} additionalProperties`],
  },
  {
    node: 'additionalProperties',
    change: 'a request object closed',
    verdict: 'breaking',
    why: 'bodies with other fields are refused',
    edit: (d) => {
      schema(d, 'NewPet').additionalProperties = true;
    },
    reverse: true,
    places: [`${NEW_PET} additionalProperties`],
  },
  {
    node: '`$ref` or inline',
    change: 'a request body schema written inline instead of by `$ref`',
    verdict: 'docs',
    why: 'the same schema, written another way',
    edit: (d) => {
      inline(d, op(d, 'post', '/pets').requestBody.content['application/json'], 'schema');
    },
    places: ['document'],
  },
  // Responses and status codes
  {
    node: 'status code',
    change: 'added, its body the `Error` with existing codes',
    verdict: 'compatible',
    why: 'HTTP statuses are open: a client treats an unknown one as its class (4xx, 5xx)',
    edit: (d) => {
      op(d, 'get', '/pets').responses['404'] = errorResponse('`not_found`: no such page.', 'not_found', 404);
    },
    places: [`${LIST} response 404`],
  },
  {
    node: 'status code',
    change: 'removed',
    verdict: 'breaking',
    why: 'clients handling it lose its meaning',
    edit: (d) => {
      delete op(d, 'get', '/pets').responses['400'];
    },
    places: [`${LIST} response 400`],
  },
  {
    node: 'error code',
    change: 'added under a status already documented',
    verdict: 'breaking',
    why: 'each error status narrows `code` to a list; a strict validator built from the release rejects the new one',
    edit: (d) => {
      response(d, 'get', '/pets', '400').content['application/json'].schema.properties.code.enum.push('not_found');
    },
    places: [`${LIST} response 400 application/json properties.code enum`],
  },
  {
    node: 'error code',
    change: 'removed from a status',
    verdict: 'compatible',
    why: 'every answer is still valid under the release',
    edit: (d) => {
      response(d, 'get', '/pets', '400').content['application/json'].schema.properties.code.enum.pop();
    },
    places: [`${LIST} response 400 application/json properties.code enum`],
  },
  {
    node: 'response media type',
    change: 'added',
    verdict: 'breaking',
    why: 'a client that sends no `Accept` may get a body it cannot read',
    edit: (d) => {
      response(d, 'get', '/pets/{petId}', '200').content['application/xml'] = { schema: { type: 'string' } };
    },
    places: [`${GET} response 200 application/xml`],
  },
  {
    node: 'response media type',
    change: 'removed',
    verdict: 'breaking',
    why: 'clients asking for it get another body or 406',
    edit: (d) => {
      response(d, 'get', '/pets/{petId}', '200').content['application/xml'] = { schema: { type: 'string' } };
    },
    reverse: true,
    places: [`${GET} response 200 application/xml`],
  },
  {
    node: 'response field',
    change: 'added',
    verdict: 'breaking',
    why: 'response objects are closed (`additionalProperties: false`): a strict validator built from the release rejects it',
    edit: (d) => {
      schema(d, 'Pet').properties.tag = { type: 'string' };
    },
    places: [`${PET} properties.tag`, `${LIST} response 200 application/json items.properties.tag`],
  },
  {
    node: 'response field',
    change: 'removed (optional)',
    verdict: 'breaking',
    why: 'clients reading it find nothing where the release promised a value when there is one',
    edit: (d) => {
      delete schema(d, 'Pet').properties.status;
    },
    places: [`${PET} properties.status`, `${CREATE} response 201 application/json properties.status`],
  },
  {
    node: 'response field',
    change: 'removed (required)',
    verdict: 'breaking',
    why: 'clients reading it find nothing',
    edit: (d) => {
      const pet = schema(d, 'Pet');
      delete pet.properties.categoryId;
      pet.required = pet.required.filter((f: string) => f !== 'categoryId');
    },
    places: [`${PET} properties.categoryId`, `${LIST} response 200 application/json items.properties.categoryId`],
  },
  {
    node: 'response field',
    change: 'made optional',
    verdict: 'breaking',
    why: 'clients reading it may find nothing',
    edit: (d) => {
      schema(d, 'Pet').required.shift();
    },
    places: [`${PET} properties.id required`],
  },
  {
    node: 'response field',
    change: 'made required',
    verdict: 'compatible',
    why: 'every answer is still valid under the release',
    edit: (d) => {
      schema(d, 'Pet').required.push('status');
    },
    places: [`${PET} properties.status required`],
  },
  {
    node: 'response field',
    change: '`type` changed',
    verdict: 'breaking',
    why: 'clients parse the old type',
    edit: (d) => {
      schema(d, 'Pet').properties.id.type = 'string';
    },
    places: [`${PET} properties.id type`, `${LIST} response 200 application/json items.properties.id type`],
  },
  {
    node: 'response bound',
    change: '`maxLength` raised',
    verdict: 'breaking',
    why: 'longer values fail a validator built from the release',
    edit: (d) => {
      schema(d, 'Pet').properties.name.maxLength = 300;
    },
    places: [`${PET} properties.name maxLength`],
  },
  {
    node: 'response bound',
    change: '`maxItems` lowered',
    verdict: 'compatible',
    why: 'every answer is still valid under the release',
    edit: (d) => {
      schema(d, 'Pets').maxItems = 50;
    },
    places: [`${LIST} response 200 application/json maxItems`],
  },
  {
    node: 'response bound',
    change: '`format` removed',
    verdict: 'breaking',
    why: 'values outside the old format fail a validator built from the release',
    edit: (d) => {
      delete schema(d, 'Pet').properties.id.format;
    },
    places: [`${PET} properties.id format`],
  },
  {
    node: 'response enum',
    change: 'value added (`PetStatus`, which responses use too)',
    verdict: 'breaking',
    why: 'clients built from the release do not know the new value',
    edit: (d) => {
      schema(d, 'PetStatus').enum.push('reserved');
    },
    places: [`${PET} properties.status enum`],
  },
  {
    node: 'response enum',
    change: 'value removed (`PetStatus`, which requests use too)',
    verdict: 'breaking',
    why: 'requests sending the value are refused',
    edit: (d) => {
      schema(d, 'PetStatus').enum.pop();
    },
    places: [`${NEW_PET} properties.status enum`, `${LIST} query parameter status enum`],
  },
  {
    node: 'nullability',
    change: 'a response field made nullable',
    verdict: 'breaking',
    why: '`null` fails a validator built from the release',
    edit: (d) => {
      schema(d, 'Pet').properties.name.type = ['string', 'null'];
    },
    places: [`${PET} properties.name type`],
  },
  {
    node: 'additionalProperties',
    change: 'a response object opened',
    verdict: 'breaking',
    why: 'other fields fail a validator built from the release',
    edit: (d) => {
      schema(d, 'Pet').additionalProperties = true;
    },
    places: [`${PET} additionalProperties`],
  },
  {
    node: '`$ref` or inline',
    change: 'a response schema written inline instead of by `$ref`',
    verdict: 'docs',
    why: 'the same schema, written another way',
    edit: (d) => {
      inline(d, response(d, 'post', '/pets', '201').content['application/json'], 'schema');
    },
    places: ['document'],
  },
  // Response headers
  {
    node: 'response header',
    change: 'added, optional',
    verdict: 'compatible',
    why: 'clients ignore headers they do not read',
    edit: (d) => {
      response(d, 'post', '/pets', '201').headers['X-Pet-Revision'] = { required: false, schema: { type: 'string' } };
    },
    places: [`${CREATE} response 201 header X-Pet-Revision`],
  },
  {
    node: 'response header',
    change: 'added, required',
    verdict: 'compatible',
    why: 'clients ignore headers they do not read',
    edit: (d) => {
      response(d, 'post', '/pets', '201').headers['X-Pet-Revision'] = { required: true, schema: { type: 'string' } };
    },
    places: [`${CREATE} response 201 header X-Pet-Revision`],
  },
  {
    node: 'response header',
    change: 'removed (required)',
    verdict: 'breaking',
    why: 'clients reading it find nothing',
    edit: (d) => {
      delete response(d, 'post', '/pets', '201').headers.Location;
    },
    places: [`${CREATE} response 201 header Location`],
  },
  {
    node: 'response header',
    change: 'removed (optional)',
    verdict: 'breaking',
    why: 'what it said is no longer said (`Link` carries the next page)',
    edit: (d) => {
      delete response(d, 'get', '/pets', '200').headers.Link;
    },
    places: [`${LIST} response 200 header Link`],
  },
  {
    node: 'response header',
    change: 'made optional',
    verdict: 'breaking',
    why: 'clients reading it may find nothing',
    edit: (d) => {
      d.components.headers.Location.required = false;
    },
    places: [`${CREATE} response 201 header Location required`],
  },
  {
    node: 'response header',
    change: 'made required',
    verdict: 'compatible',
    why: 'every answer is still valid under the release',
    edit: (d) => {
      response(d, 'get', '/pets', '200').headers.Link.required = true;
    },
    places: [`${LIST} response 200 header Link required`],
  },
  {
    node: 'response header',
    change: '`type` changed',
    verdict: 'breaking',
    why: 'clients parse the old type',
    edit: (d) => {
      d.components.headers.RetryAfter.schema = { type: 'string', format: 'date-time' };
    },
    places: [`${LIST} response 503 header Retry-After type`],
  },
  {
    node: 'response header',
    change: '`const` changed (the sunset date moved)',
    verdict: 'breaking',
    why: 'the new value fails a validator built from the release',
    edit: (d) => {
      d.components.headers.Sunset.schema.const = 'Fri, 05 Dec 2031 00:00:00 GMT';
    },
    places: [`${GET} response 200 header Sunset const`],
  },
  // Security
  {
    node: 'security requirement',
    change: 'removed from an operation',
    verdict: 'compatible',
    why: 'requests with a key are accepted as before',
    edit: (d) => {
      delete op(d, 'get', '/pets/{petId}').security;
    },
    places: [`${GET} security`],
  },
  {
    node: 'security requirement',
    change: 'added to an operation that had none',
    verdict: 'breaking',
    why: 'requests without a key are refused (401)',
    edit: (d) => {
      delete op(d, 'get', '/pets/{petId}').security;
    },
    reverse: true,
    places: [`${GET} security`],
  },
  {
    node: 'security requirement',
    change: 'an alternative added',
    verdict: 'compatible',
    why: 'requests with the old credentials are accepted as before',
    edit: (d) => {
      d.components.securitySchemes.apiKeyHeader = { type: 'apiKey', in: 'header', name: 'X-API-Key' };
      op(d, 'get', '/pets').security.push({ apiKeyHeader: [] });
    },
    places: [`${LIST} security`],
  },
  {
    node: 'security requirement',
    change: 'a second scheme demanded with the first',
    verdict: 'breaking',
    why: 'requests with only the old credentials are refused',
    edit: (d) => {
      d.components.securitySchemes.apiKeyHeader = { type: 'apiKey', in: 'header', name: 'X-API-Key' };
      op(d, 'get', '/pets').security[0].apiKeyHeader = [];
    },
    places: [`${LIST} security`],
  },
  {
    node: 'security requirement',
    change: 'a scope demanded',
    verdict: 'breaking',
    why: 'keys without the scope are refused',
    edit: (d) => {
      op(d, 'post', '/pets').security[0].bearerAuth = ['pets:write'];
    },
    places: [`${CREATE} security`],
  },
  {
    node: 'security scheme',
    change: 'its type changed',
    verdict: 'breaking',
    why: 'clients send the credentials the old way',
    edit: (d) => {
      d.components.securitySchemes.bearerAuth = { type: 'apiKey', in: 'header', name: 'X-API-Key' };
    },
    places: ['security scheme bearerAuth'],
  },
  // Servers
  {
    node: 'server',
    change: 'added',
    verdict: 'compatible',
    why: 'the old addresses still answer',
    edit: (d) => {
      d.servers.splice(2, 0, { url: 'https://pets.example.com/v1' });
    },
    places: ['server https://pets.example.com/v1'],
  },
  {
    node: 'server',
    change: 'removed',
    verdict: 'breaking',
    why: 'clients configured with it lose their address',
    edit: (d) => {
      d.servers.splice(1, 1);
    },
    places: [`server ${STAGING}`],
  },
  {
    node: 'server',
    change: 'its URL changed',
    verdict: 'breaking',
    why: 'clients configured with it lose their address',
    edit: (d) => {
      d.servers[1].url = STAGING.replace('/v1', '/v1.1');
    },
    places: [`server ${STAGING}`],
  },
  // Descriptions and examples
  {
    node: 'description',
    change: 'reworded (operation)',
    verdict: 'docs',
    why: 'prose only',
    edit: (d) => {
      op(d, 'get', '/pets').description += ' Pages are stable.';
    },
    places: [`${LIST} description`],
  },
  {
    node: 'description',
    change: 'added (response field)',
    verdict: 'docs',
    why: 'prose only',
    edit: (d) => {
      schema(d, 'Pet').properties.name.description = 'The name of the animal.';
    },
    places: [`${PET} properties.name description`],
  },
  {
    node: 'description',
    change: 'reworded (security scheme, server, document)',
    verdict: 'docs',
    why: 'prose only',
    edit: (d) => {
      d.components.securitySchemes.bearerAuth.description = 'The API key.';
      d.servers[1].description = 'Staging.';
      d.info.summary = 'The animals of a pet store.';
    },
    places: ['security scheme bearerAuth description', `server ${STAGING} description`, 'info summary'],
  },
  {
    node: 'example',
    change: 'added (parameter)',
    verdict: 'docs',
    why: 'an illustration; nothing a client sends or receives changes',
    // The release has one: the edit takes it away, and the comparison runs from the edit to the release.
    edit: (d) => {
      delete param(d, 'get', '/pets', 'limit').example;
    },
    reverse: true,
    places: [`${LIST} query parameter limit example`],
  },
  {
    node: 'example',
    change: 'removed (parameter)',
    verdict: 'docs',
    why: 'an illustration; nothing a client sends or receives changes',
    edit: (d) => {
      delete param(d, 'get', '/pets', 'limit').example;
    },
    places: [`${LIST} query parameter limit example`],
  },
  {
    node: 'example',
    change: 'added (response body)',
    verdict: 'docs',
    why: 'an illustration; nothing a client sends or receives changes',
    edit: (d) => {
      delete response(d, 'get', '/pets/{petId}', '200').content['application/json'].example;
    },
    reverse: true,
    places: [`${GET} response 200 application/json example`],
  },
  // Extensions
  {
    node: '`x-` extension',
    change: 'changed',
    verdict: 'breaking',
    why: 'no rule knows what it means: breaking until someone decides',
    edit: (d) => {
      d['x-gateway-responses'].unknownPath = { $ref: '#/components/responses/MethodNotAllowed' };
    },
    places: ['x-gateway-responses unknownPath'],
  },
];

/** The policy as a Markdown table, one row per case (docs/openapi.md carries it between its markers). */
export function policyTable(corpus: readonly CorpusCase[] = CORPUS): string {
  const verdicts: Record<Verdict, string> = { breaking: '**breaking**', compatible: 'compatible (minor)', docs: 'compatible (patch)' };
  const rows = corpus.map((c) => `| ${c.node} | ${c.change} | ${verdicts[c.verdict]} | ${c.why} |`);
  return ['| Node | Change | Verdict | Why |', '|---|---|---|---|', ...rows].join('\n');
}
