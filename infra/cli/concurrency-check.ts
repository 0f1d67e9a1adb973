/**
 * Before a stage is deployed: can the account's Lambda concurrency hold it? Pure, so the deploy CLI
 * (deploy.ts) only reads the account's numbers and acts on the verdict.
 *
 * A stage that reserves concurrency must leave Lambda's minimum unreserved, or CloudFormation
 * fails mid-deploy and rolls back: stop before it starts. A stage that reserves nothing always
 * deploys; where the account's quota is below what its methods admit at once, say what clients
 * will see until the quota is raised.
 */
import { type CapacitySettings, MINIMUM_UNRESERVED_CONCURRENCY, NEED_SETTINGS, fmt, stageCapacity } from '../cdk/capacity.ts';

/** The account's numbers, as Lambda's GetAccountSettings and GetFunctionConcurrency give them. */
export interface AccountConcurrency {
  /** `AccountLimit.ConcurrentExecutions`: the account's quota in this region. */
  readonly quota: number;
  /** `AccountLimit.UnreservedConcurrentExecutions`: the quota less every reservation in the region. */
  readonly unreserved: number;
  /** What this stage's functions reserve now (0 for a function that does not exist yet or reserves nothing). */
  readonly stageReservedNow: number;
}

export interface ConcurrencyVerdict {
  readonly verdict: 'proceed' | 'warn' | 'stop';
  /** What to tell the operator; empty when proceeding without remark. */
  readonly message: string;
}

export function checkAccountConcurrency(stage: string, settings: CapacitySettings, account: AccountConcurrency): ConcurrencyVerdict {
  const capacity = stageCapacity(settings);
  // What the stage may use once deployed: the unreserved pool plus its own reservations, which the deploy replaces.
  const otherReservations = account.quota - account.unreserved - account.stageReservedNow;
  const quotaLine = `the account's Lambda quota of concurrent executions in this region is ${fmt(account.quota)}, ${fmt(account.unreserved)} of them unreserved`;
  if (settings.reserveConcurrency) {
    const reserving = capacity.reservedConcurrency;
    const leftUnreserved = account.quota - otherReservations - reserving;
    if (leftUnreserved >= MINIMUM_UNRESERVED_CONCURRENCY) return { verdict: 'proceed', message: '' };
    const quotaNeeded = otherReservations + reserving + MINIMUM_UNRESERVED_CONCURRENCY;
    return {
      verdict: 'stop',
      message:
        `Not deploying ${stage}: it reserves ${fmt(reserving)} concurrent executions (${stage}.reserveConcurrency: each function's concurrency need), ` +
        `but ${quotaLine}${account.stageReservedNow > 0 ? ` (${fmt(account.stageReservedNow)} more are this stage's own reservations now)` : ''}, ` +
        `so ${fmt(Math.max(0, leftUnreserved))} would stay unreserved and Lambda refuses a reservation that leaves fewer than ${MINIMUM_UNRESERVED_CONCURRENCY}. ` +
        `Raise the account's "Concurrent executions" quota to at least ${fmt(quotaNeeded)} (Service Quotas; docs/operators.md), ` +
        `or deploy with -c ${stage}.reserveConcurrency=false, or lower ${stage}.throttlingBurstLimit and ${stage}.throttlingRateLimit.`,
    };
  }
  const pool = account.unreserved + account.stageReservedNow;
  if (pool >= capacity.concurrencyNeed) return { verdict: 'proceed', message: '' };
  return {
    verdict: 'warn',
    message:
      `Warning: ${stage}'s methods admit ${fmt(capacity.concurrencyNeed)} concurrent executions at once ` +
      `(${NEED_SETTINGS}), but ${quotaLine}. ` +
      `Deploying anyway: bursts above ${fmt(pool)} get 503 until the quota is raised ` +
      `(Service Quotas, "Concurrent executions"; docs/operators.md).`,
  };
}
