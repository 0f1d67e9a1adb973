/**
 * `npm start`: the Pet Store API on one machine, on http://127.0.0.1:3000/v1 by default.
 * Environment: PORT, PETSTORE_DATA_DIR (default .data, or :memory:), PETSTORE_API_KEY,
 * PETSTORE_DYNAMODB_ENDPOINT. See the README's "Local mode" section.
 */
import { DEFAULT_DATA_DIR, IN_MEMORY, startLocalStack } from './local-stack.ts';

const port = Number(process.env.PORT ?? 3000);
if (!Number.isInteger(port) || port < 0 || port > 65_535) {
  process.stderr.write(`PORT must be a port number from 0 to 65535, not "${process.env.PORT}".\n`);
  process.exit(2);
}
const dataDir = process.env.PETSTORE_DATA_DIR || DEFAULT_DATA_DIR;
// Read before startLocalStack, which sets it to the embedded store's address for the handlers.
const externalStore = process.env.PETSTORE_DYNAMODB_ENDPOINT || undefined;

try {
  const stack = await startLocalStack({
    port,
    dataDir,
    apiKey: process.env.PETSTORE_API_KEY || undefined,
    dynamodbEndpoint: externalStore,
  });
  const lines = [
    `Pet Store API listening on ${stack.url}`,
    `  store: ${externalStore ? stack.dynamodbEndpoint : `embedded dynalite (${dataDir === IN_MEMORY ? 'in memory' : dataDir})`}`,
  ];
  if (stack.issuedApiKey) {
    lines.push(
      `  development API key (shown once, only its hash is stored): ${stack.issuedApiKey}`,
      `  try: curl -H "Authorization: Bearer ${stack.issuedApiKey}" ${stack.url}/pets`,
    );
  } else if (process.env.PETSTORE_API_KEY) {
    lines.push('  API key: the one in PETSTORE_API_KEY');
  } else {
    lines.push('  API keys: issued earlier (npm run keys -- list); a new one: npm run keys -- create --label NAME');
  }
  process.stdout.write(`${lines.join('\n')}\n`);

  const stop = (signal: string) => {
    process.stdout.write(`${signal}: stopping\n`);
    stack.close().then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`failed to stop cleanly: ${String(error)}\n`);
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
} catch (error) {
  process.stderr.write(`Could not start the local API: ${(error as Error).message}\n`);
  process.exit(1);
}
