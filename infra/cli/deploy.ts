/**
 * `npm run deploy:staging` and `npm run deploy:production`: check the account's Lambda concurrency against the stage
 * (concurrency-check.ts), then run `cdk deploy PetStore-<stage>` with the rest of the arguments (which deploys PetStore-account first,
 * a dependency, unless they include --exclusively).
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { GetAccountSettingsCommand, GetFunctionConcurrencyCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { stageCapacity, sum } from '../cdk/capacity.ts';
import { isStageName, readStageSettings, STAGE_NAMES, type StageName, type StageSettings, stackName } from '../cdk/stages.ts';
import { REPO_ROOT } from '../local/cloud-assembly.ts';
import { type AccountConcurrency, checkAccountConcurrency, SKIP_CHECK_FLAG } from './concurrency-check.ts';

const USAGE = `Usage: npm run deploy:<staging|production> [-- [${SKIP_CHECK_FLAG}] cdk deploy options]
       node infra/cli/deploy.ts <staging|production> [${SKIP_CHECK_FLAG}] [cdk deploy options]

Checks the account's Lambda concurrency against the stage (GetAccountSettings), then runs
cdk deploy PetStore-<stage> with the options, e.g. -c production.alarmEmail=ops@example.com
or --require-approval never. A stage the account cannot hold (its quota, less what other
functions reserve, below what the stages admit at once, or reservations Lambda would refuse),
or an account whose numbers cannot be read, stops here (exit 1), before CloudFormation;
${SKIP_CHECK_FLAG} deploys without the check. docs/operators.md says how to raise the quota.
Give each stage its own account (pin it: <stage>.account, <stage>.region); then npm run verify.`;

/** Said before deploying a stage that is not pinned: what sharing an account costs. */
const unpinned = (stage: string) =>
  `${stage} is not pinned to an account (${stage}.account, ${stage}.region): stages in one account share its Lambda concurrency, ` +
  'quotas and blast radius; AWS recommends an account per stage (docs/operators.md, "Accounts and addresses").\n';

/** `-c key=value`, `--context key=value` and `--context=key=value` among cdk's options. */
export function contextOf(args: readonly string[]): Record<string, string> {
  const context: Record<string, string> = {};
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    const inline = /^--context=(.*)$/.exec(arg)?.[1];
    const pair = inline ?? (arg === '-c' || arg === '--context' ? args[++i] : undefined);
    if (pair === undefined) continue;
    const at = pair.indexOf('=');
    if (at > 0) context[pair.slice(0, at)] = pair.slice(at + 1);
  }
  return context;
}

/** The value of `--profile P` or `--profile=P` among cdk's options. */
function profileOf(args: readonly string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--profile') return args[i + 1];
    const inline = /^--profile=(.+)$/.exec(args[i] as string)?.[1];
    if (inline) return inline;
  }
  return undefined;
}

/** The account's numbers where `stage` deploys: Lambda's account settings and every stage's reservations there now. */
async function readAccount(stage: StageSettings, stages: readonly StageSettings[]): Promise<AccountConcurrency> {
  const lambda = new LambdaClient(stage.env ? { region: stage.env.region } : {});
  const reserved = async (functionName: string) => {
    try {
      return (await lambda.send(new GetFunctionConcurrencyCommand({ FunctionName: functionName }))).ReservedConcurrentExecutions ?? 0;
    } catch (error) {
      // Not deployed here (yet): it reserves nothing.
      if ((error as { name?: string }).name === 'ResourceNotFoundException') return 0;
      throw error;
    }
  };
  try {
    const { AccountLimit } = await lambda.send(new GetAccountSettingsCommand({}));
    const ofStage = async (s: StageSettings) =>
      sum(await Promise.all(stageCapacity(s).functions.map((f) => reserved(`${stackName(s.stage)}-${f.functionId}`))));
    const reservedNow = await Promise.all(stages.map(async (s) => [s.stage, await ofStage(s)] as const));
    return {
      quota: AccountLimit?.ConcurrentExecutions ?? 0,
      unreserved: AccountLimit?.UnreservedConcurrentExecutions ?? 0,
      reservedNow: Object.fromEntries(reservedNow),
    };
  } finally {
    lambda.destroy();
  }
}

/** `cdk deploy`, stopped with this process: an interrupt reaches the child and its exit code is ours. */
function cdkDeploy(stage: StageName, args: readonly string[]): Promise<number> {
  const child = spawn(path.join(REPO_ROOT, 'node_modules/.bin/cdk'), ['deploy', stackName(stage), ...args], {
    cwd: REPO_ROOT,
    stdio: 'inherit',
  });
  const forward = (signal: NodeJS.Signals) => () => child.kill(signal);
  const onInt = forward('SIGINT');
  const onTerm = forward('SIGTERM');
  process.on('SIGINT', onInt).on('SIGTERM', onTerm);
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      process.off('SIGINT', onInt).off('SIGTERM', onTerm);
      resolve(code ?? (signal ? 128 + signalNumber(signal) : 1));
    });
  });
}

function signalNumber(signal: NodeJS.Signals): number {
  return signal === 'SIGINT' ? 2 : signal === 'SIGTERM' ? 15 : 1;
}

export async function main(argv: readonly string[]): Promise<number> {
  const [stage, ...cdkArgs] = argv;
  if (stage === '--help' || stage === '-h' || cdkArgs.includes('--help') || cdkArgs.includes('-h')) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (stage === undefined || !isStageName(stage)) {
    process.stderr.write(`${stage === undefined ? 'No stage given.' : `Unknown stage "${stage}".`}\n${USAGE}\n`);
    return 2;
  }
  const skip = cdkArgs.includes(SKIP_CHECK_FLAG);
  const args = cdkArgs.filter((arg) => arg !== SKIP_CHECK_FLAG);
  const context = contextOf(args);
  const stages = STAGE_NAMES.map((name) => readStageSettings(name, (key) => context[key]));
  const settings = stages.find((s) => s.stage === stage) as StageSettings;
  const profile = profileOf(args);
  if (profile) process.env.AWS_PROFILE = profile;
  const deploy = () => {
    if (!settings.env) process.stderr.write(unpinned(stage));
    return cdkDeploy(stage, args);
  };
  if (skip) {
    process.stderr.write(`Not checking the account's Lambda concurrency (${SKIP_CHECK_FLAG}).\n`);
    return deploy();
  }

  let account: AccountConcurrency;
  try {
    account = await readAccount(settings, stages);
  } catch (error) {
    process.stderr.write(
      `Not deploying ${stage}: could not read the account's Lambda concurrency (${(error as Error).message}); the check needs ` +
        `lambda:GetAccountSettings and lambda:GetFunctionConcurrency. Grant them, or deploy with ${SKIP_CHECK_FLAG}.\n`,
    );
    return 1;
  }
  const { verdict, message } = checkAccountConcurrency(stage, stages, account);
  if (verdict === 'stop') {
    process.stderr.write(`${message}\n`);
    return 1;
  }
  return deploy();
}

if (import.meta.main) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      process.stderr.write(`${(error as Error).message}\n`);
      process.exit(1);
    },
  );
}
