/**
 * Before a stage is deployed: can the account's Lambda concurrency hold it? Pure, so the deploy CLI
 * (deploy.ts) only reads the account's numbers and acts on the verdict. A stage that reserves
 * concurrency must leave Lambda's minimum unreserved, or CloudFormation fails mid-deploy and rolls
 * back: stop before it starts. Otherwise it deploys, with a warning where the account cannot hold
 * what the stages that may share it admit at once (the synth's sums, against the account's numbers).
 */
import { MINIMUM_UNRESERVED_CONCURRENCY, type StageInAccount, accountShares, fmt, minimumUnreserved, sum } from '../cdk/capacity.ts';

/** The account's numbers, as Lambda's GetAccountSettings and GetFunctionConcurrency give them. */
export interface AccountConcurrency {
  /** `AccountLimit.ConcurrentExecutions`: the account's quota in this region. */
  readonly quota: number;
  /** `AccountLimit.UnreservedConcurrentExecutions`: the quota less every reservation in the region. */
  readonly unreserved: number;
  /** What each stage's functions reserve now, by stage (0 for functions not deployed yet or reserving nothing). */
  readonly reservedNow: Readonly<Record<string, number>>;
}

export interface ConcurrencyVerdict {
  readonly verdict: 'proceed' | 'warn' | 'stop';
  /** What to tell the operator; empty when proceeding without remark. */
  readonly message: string;
}

/** `stage`'s verdict, with every stage's settings: those that may share its account count together, as the synth counts them. */
export function checkAccountConcurrency(stage: string, stages: readonly StageInAccount[], account: AccountConcurrency): ConcurrencyVerdict {
  const reservedNow = (s: StageInAccount) => account.reservedNow[s.stage] ?? 0;
  const own = stages.find((s) => s.stage === stage) as StageInAccount;
  // The stages that may share this account (the largest such group, if several), as the synth sums them.
  const share = accountShares(stages)
    .filter((group) => group.stages.includes(own))
    .reduce((a, b) => (sum(b.needs) > sum(a.needs) ? b : a));
  const quotaLine = `the account's Lambda quota of concurrent executions in this region is ${fmt(account.quota)}, ${fmt(account.unreserved)} of them unreserved`;
  if (own.reserveConcurrency) {
    // It reserves its need. The deploy replaces the stage's own reservations; every other function's stay.
    const reserving = share.needs[share.stages.indexOf(own)] as number;
    const leftUnreserved = account.unreserved + reservedNow(own) - reserving;
    const minimum = minimumUnreserved(account.quota);
    if (leftUnreserved < minimum) {
      const quotaNeeded = account.quota - leftUnreserved + MINIMUM_UNRESERVED_CONCURRENCY;
      return {
        verdict: 'stop',
        message:
          `Not deploying ${stage}: it reserves ${fmt(reserving)} concurrent executions (${stage}.reserveConcurrency: each function's concurrency need), ` +
          `but ${quotaLine}${reservedNow(own) > 0 ? ` (${fmt(reservedNow(own))} more are this stage's own reservations now)` : ''}, ` +
          `so ${fmt(Math.max(0, leftUnreserved))} would stay unreserved and Lambda refuses a reservation that leaves fewer than ${fmt(minimum)} in this account. ` +
          `Raise the account's "Concurrent executions" quota to at least ${fmt(quotaNeeded)} (Service Quotas; docs/operators.md), ` +
          `or deploy with -c ${stage}.reserveConcurrency=false, or lower ${stage}.apiConcurrency.`,
      };
    }
  }
  // What the account leaves them: its unreserved pool and their own reservations.
  const pool = account.unreserved + sum(share.stages.map(reservedNow));
  if (pool >= sum(share.needs)) return { verdict: 'proceed', message: '' };
  return {
    verdict: 'warn',
    message:
      `Warning: ${share.needSentence}, but ${quotaLine}. ` +
      `Deploying anyway: bursts above ${fmt(pool)} get 503 until the quota is raised (Service Quotas, "Concurrent executions"; docs/operators.md).`,
  };
}
