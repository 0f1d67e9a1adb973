// One execution environment of bundle mode: imports the bundle once, one invocation per message.
import { pathToFileURL } from 'node:url';
import { parentPort, workerData } from 'node:worker_threads';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { type FunctionLimits, lambdaContext } from './lambda-context.ts';

interface Setup {
  readonly modulePath: string;
  readonly exportName: string;
  readonly functionName: string;
  readonly sourceMaps: boolean;
  readonly limits: FunctionLimits;
}

const setup = workerData as Setup;
// The template's NODE_OPTIONS asks for source maps; a worker takes them from this call.
if (setup.sourceMaps) process.setSourceMapsEnabled(true);
const port = parentPort;
if (!port) throw new Error('lambda-worker.ts runs as a worker thread');

const module = (await import(pathToFileURL(setup.modulePath).href)) as Record<string, unknown>;
const handler = module[setup.exportName] as ((event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>) | undefined;
if (typeof handler !== 'function') throw new Error(`${setup.modulePath} exports no function ${setup.exportName}`);

port.on('message', async ({ event, requestId }: { event: APIGatewayProxyEvent; requestId: string }) => {
  try {
    const result = await handler(event, lambdaContext(requestId, setup.functionName, 'local', setup.limits));
    port.postMessage({ ok: true, result });
  } catch (error) {
    const message = (error as Error).stack ?? String(error);
    process.stderr.write(`${setup.functionName}: function error: ${message}\n`);
    port.postMessage({ ok: false, reason: (error as Error).message ?? String(error) });
  }
});
