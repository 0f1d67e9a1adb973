// Source mode: handler sources in this process, so tests can reach into them; the template decides the rest.
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { lambdaContext } from './lambda-context.ts';
import type { FunctionInvoker } from '../gateway/rest-api.ts';
import type { LambdaFunctionDefinition, RestApiDefinition } from '../gateway/template.ts';

export type ProxyHandler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;

// Functions are named `<stack name>-<module>` (stage-stack.ts), the REST API after the stack.
export function sourceModuleOf(fn: LambdaFunctionDefinition, api: RestApiDefinition): string {
  const prefix = `${api.name}-`;
  if (!fn.functionName.startsWith(prefix)) throw new Error(`Function ${fn.functionName} is not named <stack>-<module> (${prefix}…)`);
  return fn.functionName.slice(prefix.length);
}

export async function loadSourceHandlers(
  modules: readonly string[],
  load: (module: string) => Promise<ProxyHandler>,
  given: Readonly<Record<string, ProxyHandler>> = {},
): Promise<Record<string, ProxyHandler>> {
  const entries = await Promise.all(modules.map(async (name) => [name, given[name] ?? (await load(name))] as const));
  return Object.fromEntries(entries);
}

export function sourceInvoker(api: RestApiDefinition, handlers: Readonly<Record<string, ProxyHandler>>): FunctionInvoker {
  const byFunction = new Map<string, { name: string; handler: ProxyHandler }>();
  for (const [id, fn] of api.functions) {
    const name = sourceModuleOf(fn, api);
    const handler = handlers[name];
    if (!handler) throw new Error(`No handler for ${name}`);
    byFunction.set(id, { name, handler });
  }
  return async (fn, event, requestId) => {
    const found = byFunction.get(fn.logicalId);
    if (!found) throw new Error(`No handler for function ${fn.logicalId}`);
    try {
      const context = lambdaContext(requestId, found.name, api.stageName, { memoryMb: fn.memoryMb, timeoutSeconds: fn.timeoutSeconds });
      return { ok: true, result: await found.handler(event, context) };
    } catch (error) {
      const reason = (error as Error).message ?? String(error);
      // What Lambda would record for a function error; the client gets the gateway's 502/5XX.
      process.stderr.write(`${found.name}: function error: ${reason}\n`);
      return { ok: false, reason };
    }
  };
}
