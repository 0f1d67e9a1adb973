/**
 * The deploy scripts' check of the account's Lambda concurrency (the decision, on the account's
 * numbers), how they read the stage's settings from cdk's options, and their usage.
 */
import { spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes } from '#lib/routes.ts';
import { CAPACITY_CHOICES, capacityProblems, fmt, stageCapacity } from '../../infra/cdk/capacity.ts';
import { readStageSettings, type StageSettings } from '../../infra/cdk/stages.ts';
import { checkAccountConcurrency, SKIP_CHECK_FLAG } from '../../infra/cli/concurrency-check.ts';
import { contextOf } from '../../infra/cli/deploy.ts';

const staging = readStageSettings('staging', () => undefined);
const production = readStageSettings('production', () => undefined);
const need = stageCapacity(production).concurrencyNeed;
const stagingNeed = stageCapacity(staging).concurrencyNeed;
/** The stages pinned to two accounts: production's is its own. */
const apart = (settings: StageSettings) => [
  { ...staging, env: { account: '111111111111', region: 'eu-west-1' } },
  { ...settings, env: { account: '222222222222', region: 'eu-west-1' } },
];
const reserving = apart({ ...production, reserveConcurrency: true });
const account = (quota: number, unreserved = quota, reservedNow: Record<string, number> = {}) => ({ quota, unreserved, reservedNow });

describe('the account check before a deploy', () => {
  it('lets a reserving stage deploy when its reservations leave Lambda 100 unreserved', () => {
    expect(checkAccountConcurrency('production', reserving, account(1000))).toEqual({ verdict: 'proceed', message: '' });
    expect(checkAccountConcurrency('production', reserving, account(need + 100)).verdict).toBe('proceed');
  });

  it("stops a reserving stage the account cannot hold, naming the quota, the need, the account's minimum, the choices and the override", () => {
    // A new account's reduced quota: Lambda keeps all of it unreserved.
    const { verdict, message } = checkAccountConcurrency('production', reserving, account(10));
    expect(verdict).toBe('stop');
    expect(message).toMatch(
      new RegExp(
        "^Not deploying production: the account's Lambda quota of concurrent executions in this region \\(AccountLimit.ConcurrentExecutions\\) is 10, " +
          'other functions reserve 0 of it and 10 are unreserved \\(UnreservedConcurrentExecutions\\): 10 for the stages, taken as their accountConcurrency\\. ' +
          `stage "production": its ${routes.length} API methods and docs routes admit ${fmt(need)} concurrent executions`,
      ),
    );
    expect(message).toContain(
      `stage "production": its functions reserve ${fmt(need)} concurrent executions (reserveConcurrency in "production": each function's need), ` +
        'above accountConcurrency 10 minus the 10 Lambda keeps unreserved (0). Turn reserveConcurrency off, or: ',
    );
    expect(message).toContain(CAPACITY_CHOICES);
    expect(message).toMatch(new RegExp(`Or, knowing the account better, deploy with ${SKIP_CHECK_FLAG}\\.$`));
    const short = checkAccountConcurrency('production', reserving, account(need + 99));
    expect(short.verdict).toBe('stop');
    expect(short.message).toContain('minus the 100 Lambda keeps unreserved');
  });

  it("counts the stage's own reservations as its to replace on an update, and other functions' as taken", () => {
    // 1,000 quota, 300 reserved by other functions, this stage's functions hold what they will hold again.
    const update = account(1000, 700 - need, { production: need });
    expect(checkAccountConcurrency('production', reserving, update).verdict).toBe('proceed');
    // Without counting them, 700 - need unreserved would look too few.
    expect(checkAccountConcurrency('production', reserving, { ...update, reservedNow: {} }).verdict).toBe('stop');
    const crowded = checkAccountConcurrency('production', reserving, account(1000, 100));
    expect(crowded.message).toContain('other functions reserve 900 of it and 100 are unreserved');
    expect(checkAccountConcurrency('production', reserving, update).message).toBe('');
  });

  it('counts every stage that may share the account, as the synth does, and stops a stage that reserves nothing where they do not fit', () => {
    expect(checkAccountConcurrency('production', [staging, production], account(1000)).verdict).toBe('proceed');
    // Production alone fits; with staging, which may share its account, it does not.
    expect(checkAccountConcurrency('production', apart(production), account(need)).verdict).toBe('proceed');
    const { verdict, message } = checkAccountConcurrency('production', [staging, production], account(need + 50, need));
    expect(verdict).toBe('stop');
    expect(message).toBe(
      "Not deploying production: the account's Lambda quota of concurrent executions in this region (AccountLimit.ConcurrentExecutions) " +
        `is ${fmt(need + 50)}, other functions reserve 50 of it and ${fmt(need)} are unreserved (UnreservedConcurrentExecutions): ` +
        `${fmt(need)} for the stages, taken as their accountConcurrency. ` +
        `stages "staging" and "production" share an account: their ${routes.length} API methods and docs routes admit ${fmt(stagingNeed)} + ${fmt(need)} = ${fmt(stagingNeed + need)} ` +
        'concurrent executions (B + ⌈r × functionDurationMs⌉ per method: B = ⌊methodRateLimit × burstSeconds⌋ and r = methodRateLimit on each API method, ' +
        "the docs throttle on each docs route; API Gateway's throttles are best-effort targets, not exact ceilings), " +
        `above accountConcurrency ${fmt(need)}. ${CAPACITY_CHOICES} Or, knowing the account better, deploy with ${SKIP_CHECK_FLAG}.`,
    );
    // Staging's reservations are the stages' own to use, not another function's.
    const reservedByStaging = account(stagingNeed + need, need, { staging: stagingNeed });
    expect(checkAccountConcurrency('production', [staging, production], reservedByStaging).verdict).toBe('proceed');
  });

  it("stops on an account of accountConcurrency's quota exactly when the synth refuses the settings", () => {
    for (const methodRateLimit of [20, 50, 100, 200, 800]) {
      const stages = [staging, { ...production, methodRateLimit }];
      const stopped = checkAccountConcurrency('production', stages, account(production.accountConcurrency)).verdict === 'stop';
      expect(stopped, `production.methodRateLimit ${methodRateLimit}`).toBe(capacityProblems(stages).length > 0);
    }
  });
});

describe('the deploy command line', () => {
  it("reads -c and --context values among cdk's options, as the CDK app will see them", () => {
    expect(
      contextOf([
        '-c',
        'production.reserveConcurrency=true',
        '--require-approval',
        'never',
        '--context',
        'a=b=c',
        '--context=production.tracing=false',
      ]),
    ).toEqual({ 'production.reserveConcurrency': 'true', a: 'b=c', 'production.tracing': 'false' });
  });

  it('prints its usage with --help and refuses an unknown stage', () => {
    const help = spawnSync(process.execPath, ['infra/cli/deploy.ts', '--help'], { encoding: 'utf8' });
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/^Usage: npm run deploy:<staging\|production>/);
    const wrong = spawnSync(process.execPath, ['infra/cli/deploy.ts', 'qa'], { encoding: 'utf8' });
    expect(wrong.status).toBe(2);
    expect(wrong.stderr).toMatch(/Unknown stage "qa"/);
  });
});

describe('the deploy scripts against an account', () => {
  // Lambda's API as the real SDK reaches it (AWS_ENDPOINT_URL_LAMBDA): a new account's reduced quota
  // of 10, nothing deployed yet. cdk deploy itself runs with an app that fails at once, so nothing
  // reaches AWS: what it prints shows whether the script got that far.
  const calls: string[] = [];
  const lambda = createServer((request, response) => {
    calls.push(`${request.method} ${request.url}`);
    if (request.url === '/2016-08-19/account-settings') {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ AccountLimit: { ConcurrentExecutions: 10, UnreservedConcurrentExecutions: 10 }, AccountUsage: {} }));
      return;
    }
    response.writeHead(404, { 'content-type': 'application/json', 'x-amzn-errortype': 'ResourceNotFoundException' });
    response.end(JSON.stringify({ Type: 'User', Message: 'Function not found' }));
  });
  beforeAll(() => new Promise<void>((resolve) => lambda.listen(0, '127.0.0.1', resolve)));
  afterAll(() => new Promise<void>((resolve) => lambda.close(() => resolve())));

  const deploy = (...args: string[]) =>
    new Promise<{ code: number | null; stderr: string }>((resolve, reject) => {
      const child = spawn(process.execPath, ['infra/cli/deploy.ts', 'production', ...args, '--app', 'exit 7'], {
        env: {
          PATH: process.env.PATH,
          AWS_ENDPOINT_URL_LAMBDA: `http://127.0.0.1:${(lambda.address() as AddressInfo).port}`,
          AWS_REGION: 'eu-west-1',
          AWS_ACCESS_KEY_ID: 'AKIDTEST',
          AWS_SECRET_ACCESS_KEY: 'test',
          AWS_EC2_METADATA_DISABLED: 'true',
          CDK_DISABLE_CLI_TELEMETRY: '1',
        },
      });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
      });
      child.once('error', reject);
      child.once('exit', (code) => resolve({ code, stderr }));
    });

  it('refuses, exit 1, before cdk deploy starts, naming the quota, the need, what other functions hold and the override', async () => {
    calls.length = 0;
    const { code, stderr } = await deploy();
    expect(code).toBe(1);
    expect(calls).toContain('GET /2016-08-19/account-settings');
    expect(stderr).toMatch(/^Not deploying production: the account's Lambda quota/);
    expect(stderr).toContain('stages "staging" and "production" share an account');
    expect(stderr).toContain('(AccountLimit.ConcurrentExecutions) is 10, other functions reserve 0 of it and 10 are unreserved');
    expect(stderr).toContain(`deploy with ${SKIP_CHECK_FLAG}`);
    expect(stderr).not.toMatch(/Subprocess exited/);
  }, 60_000);

  it(`runs cdk deploy without reading the account with ${SKIP_CHECK_FLAG}`, async () => {
    calls.length = 0;
    const { code, stderr } = await deploy(SKIP_CHECK_FLAG);
    expect(calls).toEqual([]);
    expect(stderr).toContain(`Not checking the account's Lambda concurrency (${SKIP_CHECK_FLAG})`);
    expect(stderr).toContain('production is not pinned to an account (production.account, production.region)');
    // cdk ran the (failing) app: the flag reached no one else.
    expect(stderr).toMatch(/exited with error 7/);
    expect(code).not.toBe(0);
  }, 120_000);
});
