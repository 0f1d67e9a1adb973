/**
 * The docs' tables of operations, from the descriptors and the document they generate: README.md's
 * summary of the interface, and docs/scaling.md's DynamoDB access of each operation.
 */
import { API_BASE_PATH } from '#lib/http/urls.ts';
import { buildOpenApiDocument } from '../openapi/document.ts';
import type { ParameterObject, ResponseObject } from '../openapi/types.ts';
import { type ApiOperation, operations } from '#lib/operations.ts';
import { grantsOf } from '#lib/operations/operation.ts';
import { table } from './stage-tables.ts';

const code = (text: string | number) => `\`${text}\``;
/** Headers on every answer (docs/openapi.md), left out of each row. */
const ON_EVERY_ANSWER = new Set(['X-Request-Id', 'Vary']);

const documented = (o: ApiOperation) => buildOpenApiDocument().paths[o.resource]?.[o.method.toLowerCase() as 'get'];

/** README.md: each operation's request, success answer and function, in the document's order. */
export function operationsTable(): string {
  const rows = operations.map((o) => {
    const parameters = (documented(o)?.parameters ?? []) as ParameterObject[];
    const query = parameters.filter((p) => p.in === 'query').map((p) => `${p.name}=`);
    const request = [
      code(`${o.method} ${API_BASE_PATH}${o.resource}${query.length > 0 ? `?${query.join('&')}` : ''}`),
      ...(o.requestBody ? [`with a ${o.requestBody.schema} JSON body`] : []),
    ].join(' ');
    const headers = parameters.filter((p) => p.in === 'header').map((p) => `${p.required ? '' : 'optional '}${code(p.name)}`);
    const answer = documented(o)?.responses[o.success.status] as ResponseObject | undefined;
    const answerHeaders = Object.keys(answer?.headers ?? {}).filter((h) => !ON_EVERY_ANSWER.has(h));
    const success = [`${code(o.success.status)}${'schema' in o.success ? ` ${o.success.schema}` : ''}`, ...answerHeaders.map(code)];
    return [
      `${code(o.operationId)}${o.deprecation ? ' (deprecated)' : ''}`,
      [request, ...headers].join('; '),
      success.join(', '),
      code(o.functionId),
    ];
  });
  return table(['operation', 'request', 'success', 'function'], rows, ['l', 'l', 'l', 'l']);
}

/** docs/scaling.md: the DynamoDB actions each operation's function may take, as its descriptor grants them. */
export function operationAccessTable(): string {
  const rows = operations.map((o) => [`${code(o.operationId)} (${code(`${o.method} ${o.resource}`)})`, grantsOf(o).join(', ')]);
  return table(['operation', 'DynamoDB actions (table or index), the key lookup included'], rows, ['l', 'l']);
}
