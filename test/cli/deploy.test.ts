/**
 * The deploy scripts' check of the account's Lambda concurrency (the decision, on the account's
 * numbers), how they read the stage's settings from cdk's options, and their usage.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { stageCapacity } from '../../infra/cdk/capacity.ts';
import { readStageSettings } from '../../infra/cdk/stages.ts';
import { checkAccountConcurrency } from '../../infra/cli/concurrency-check.ts';
import { contextOf } from '../../infra/cli/deploy.ts';

const production = readStageSettings('production', () => undefined);
const reserving = { ...production, reserveConcurrency: true };
const need = stageCapacity(production).concurrencyNeed;

describe('the account check before a deploy', () => {
  it('lets a reserving stage deploy when its reservations leave Lambda 100 unreserved', () => {
    expect(checkAccountConcurrency('production', reserving, { quota: 1000, unreserved: 1000, stageReservedNow: 0 })).toEqual({
      verdict: 'proceed',
      message: '',
    });
    expect(
      checkAccountConcurrency('production', reserving, { quota: need + 100, unreserved: need + 100, stageReservedNow: 0 }).verdict,
    ).toBe('proceed');
  });

  it('stops a reserving stage the account cannot hold, naming the quota, the need and the settings to change', () => {
    // A new account's reduced quota.
    const { verdict, message } = checkAccountConcurrency('production', reserving, { quota: 10, unreserved: 10, stageReservedNow: 0 });
    expect(verdict).toBe('stop');
    expect(message).toBe(
      `Not deploying production: it reserves ${need} concurrent executions (production.reserveConcurrency: each function's concurrency need), ` +
        "but the account's Lambda quota of concurrent executions in this region is 10, 10 of them unreserved, " +
        'so 0 would stay unreserved and Lambda refuses a reservation that leaves fewer than 100. ' +
        `Raise the account's "Concurrent executions" quota to at least ${need + 100} (Service Quotas; docs/operators.md), ` +
        'or deploy with -c production.reserveConcurrency=false, or lower production.throttlingBurstLimit and production.throttlingRateLimit.',
    );
    expect(checkAccountConcurrency('production', reserving, { quota: need + 99, unreserved: need + 99, stageReservedNow: 0 }).verdict).toBe(
      'stop',
    );
  });

  it("counts the stage's own reservations as its to replace on an update, and other functions' as taken", () => {
    // 1,000 quota, 300 reserved by other functions, this stage's functions hold what they will hold again.
    const update = { quota: 1000, unreserved: 700 - need, stageReservedNow: need };
    expect(checkAccountConcurrency('production', reserving, update).verdict).toBe('proceed');
    // Without counting them, 700 - need unreserved would look too few.
    expect(checkAccountConcurrency('production', reserving, { ...update, stageReservedNow: 0 }).verdict).toBe('stop');
    const crowded = checkAccountConcurrency('production', reserving, { quota: 1000, unreserved: 100, stageReservedNow: 0 });
    expect(crowded.message).toContain(`quota to at least ${(900 + need + 100).toLocaleString('en-US')}`);
  });

  it('lets a stage that reserves nothing deploy anywhere, warning where the quota is below its need', () => {
    expect(checkAccountConcurrency('production', production, { quota: 1000, unreserved: 1000, stageReservedNow: 0 }).verdict).toBe(
      'proceed',
    );
    const { verdict, message } = checkAccountConcurrency('production', production, { quota: 50, unreserved: 50, stageReservedNow: 0 });
    expect(verdict).toBe('warn');
    expect(message).toBe(
      `Warning: production's methods admit ${need} concurrent executions at once (throttlingBurstLimit + throttlingRateLimit × functionDurationMs, per method), ` +
        "but the account's Lambda quota of concurrent executions in this region is 50, 50 of them unreserved. " +
        'Deploying anyway: bursts above 50 get 503 until the quota is raised (Service Quotas, "Concurrent executions"; docs/operators.md).',
    );
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
