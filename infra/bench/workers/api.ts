/**
 * Worker: the local API exactly as `npm start` runs it (startLocalStack: the node:http adapter over
 * the real handler modules), on an external store.
 */
import { type LocalStack, startLocalStack } from '../../local/local-stack.ts';
import { serve } from './rpc.ts';

let stack: LocalStack | undefined;
serve(
  {
    start: async (request) => {
      stack = await startLocalStack({
        port: 0,
        dataDir: ':memory:',
        apiKey: request.apiKey as string,
        dynamodbEndpoint: request.endpoint as string,
        tablePrefix: request.tablePrefix as string,
      });
      return stack.url;
    },
  },
  async () => stack?.close(),
);
