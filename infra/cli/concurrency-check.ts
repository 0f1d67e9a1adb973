/**
 * Before a stage is deployed: can the account's Lambda concurrency hold it? Pure, so the deploy CLI
 * (deploy.ts) only reads the account's numbers and acts on the verdict. It stops a stage whose
 * reservations would leave fewer than Lambda's minimum unreserved (CloudFormation would fail
 * mid-deploy and roll back), and one the account cannot serve: what the stages that may share it
 * admit at once (the synth's sums) above what the account leaves them, which would answer 503.
 */
import { MINIMUM_UNRESERVED_CONCURRENCY, type StageInAccount, accountShares, fmt, minimumUnreserved, sum } from '../cdk/capacity.ts';

/** The flag that deploys without this check, for an operator who knows the account better. */
export const SKIP_CHECK_FLAG = '--skip-concurrency-check';

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
  readonly verdict: 'proceed' | 'stop';
  /** What to tell the operator; empty when proceeding. */
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
  const ownReserved = sum(share.stages.map(reservedNow));
  const others = account.quota - account.unreserved - ownReserved;
  const quotaLine =
    `the account's Lambda quota of concurrent executions in this region (AccountLimit.ConcurrentExecutions) is ${fmt(account.quota)}, ` +
    `other functions reserve ${fmt(others)} of it and ${fmt(account.unreserved)} are unreserved (UnreservedConcurrentExecutions)` +
    (ownReserved > 0 ? `, besides ${fmt(ownReserved)} these stages reserve now` : '');
  const stop = (what: string, quotaNeeded: number, instead: string) => ({
    verdict: 'stop' as const,
    message:
      `Not deploying ${stage}: ${what}. Raise the account's "Concurrent executions" quota to at least ${fmt(quotaNeeded)} ` +
      `(Service Quotas; docs/operators.md), or ${instead}; or, knowing the account better, deploy with ${SKIP_CHECK_FLAG}.`,
  });
  if (own.reserveConcurrency) {
    // It reserves its need. The deploy replaces the stage's own reservations; every other function's stay.
    const reserving = share.needs[share.stages.indexOf(own)] as number;
    const leftUnreserved = account.unreserved + reservedNow(own) - reserving;
    const minimum = minimumUnreserved(account.quota);
    if (leftUnreserved < minimum) {
      return stop(
        `it reserves ${fmt(reserving)} concurrent executions (${stage}.reserveConcurrency: each function's concurrency need), but ${quotaLine}, ` +
          `so ${fmt(Math.max(0, leftUnreserved))} would stay unreserved and Lambda refuses a reservation that leaves fewer than ${fmt(minimum)} in this account`,
        account.quota - leftUnreserved + MINIMUM_UNRESERVED_CONCURRENCY,
        `deploy with -c ${stage}.reserveConcurrency=false, or lower ${stage}.methodRateLimit or ${stage}.burstSeconds`,
      );
    }
  }
  // What the account leaves them: its unreserved pool and their own reservations.
  const pool = account.unreserved + ownReserved;
  if (pool >= sum(share.needs)) return { verdict: 'proceed', message: '' };
  return stop(
    `${share.needSentence}, but ${quotaLine}: bursts above ${fmt(pool)} would get 503`,
    account.quota + sum(share.needs) - pool,
    'lower methodRateLimit or burstSeconds, or deploy the stages to separate accounts',
  );
}
