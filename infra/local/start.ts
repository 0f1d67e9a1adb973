// `npm start` and `npm run start:synth` (docs/local-mode.md; options in USAGE below).
import path from 'node:path';
import { parseCommandLine, usageMistake } from '../cli/command-line.ts';
import { isStageName } from '../cdk/stages.ts';
import { REPO_ROOT, synthesizeCloudAssembly } from './cloud-assembly.ts';
import { DEFAULT_DATA_DIR, IN_MEMORY, startLocalStack } from './local-stack.ts';

const USAGE = `Usage: npm start [-- OPTIONS]            the handler sources answer
       npm run start:synth [-- OPTIONS]  \`cdk synth\` first, then its bundles answer
Options:
  --stage staging|production   the stage to serve (default staging)
  --port N                     the port on 127.0.0.1 (default PORT, else 3000; 0: any free port)
  --cloud-assembly DIR         serve the bundles of another cloud assembly folder
  --no-synth                   with --cloud-assembly or start:synth: serve the folder as it is
  --no-throttling              bundle mode without the stage's throttling
  -h, --help                   this text
Environment: PORT (default 3000), PETSTORE_DATA_DIR (default .data, or :memory:), PETSTORE_API_KEY,
PETSTORE_DYNAMODB_ENDPOINT. See docs/local-mode.md.
`;

function usage(message: string): never {
  return usageMistake(USAGE, message);
}

const { values: args } = parseCommandLine(USAGE, {
  options: {
    stage: { type: 'string', default: 'staging' },
    port: { type: 'string' },
    synth: { type: 'boolean', default: false },
    'no-synth': { type: 'boolean', default: false },
    'cloud-assembly': { type: 'string' },
    'no-throttling': { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  },
});
const stage = args.stage;
if (!isStageName(stage)) usage(`--stage must be staging or production, not "${stage}".`);
const portText = args.port ?? (process.env.PORT || '3000');
const port = Number(portText);
if (!/^\d+$/.test(portText) || port > 65_535) usage(`--port (or PORT) must be a port number from 0 to 65535, not "${portText}".`);
const dataDir = process.env.PETSTORE_DATA_DIR || DEFAULT_DATA_DIR;
// Read before startLocalStack, which sets it to the embedded store's address for the handlers.
const externalStore = process.env.PETSTORE_DYNAMODB_ENDPOINT || undefined;
const bundles = args.synth || args['cloud-assembly'] !== undefined;
const cloudAssembly = bundles ? path.resolve(args['cloud-assembly'] ?? path.join(REPO_ROOT, 'cdk.out')) : undefined;

try {
  if (cloudAssembly && args.synth && !args['no-synth']) {
    process.stdout.write(`cdk synth ${stage} into ${path.relative(process.cwd(), cloudAssembly) || '.'} …\n`);
    await synthesizeCloudAssembly(stage, cloudAssembly);
  }
  const stack = await startLocalStack({
    port,
    dataDir,
    apiKey: process.env.PETSTORE_API_KEY || undefined,
    dynamodbEndpoint: externalStore,
    stage,
    ...(cloudAssembly ? { cloudAssembly } : {}),
    ...(args['no-throttling'] ? { throttling: false } : {}),
  });
  const lines = [
    `Pet Store API listening on ${stack.url}`,
    `  stage: ${stack.stage}, from its template; functions: ${
      cloudAssembly ? `the bundles in ${cloudAssembly}` : 'the handler sources (functions/)'
    }; throttling: ${cloudAssembly && !args['no-throttling'] ? "the stage's" : 'off'}`,
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
