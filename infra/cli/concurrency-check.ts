/**
 * Before a stage is deployed: can the account's Lambda concurrency hold it? The synth's checks (capacity.ts) on the account's real
 * numbers, so the deploy CLI (deploy.ts) only reads them and acts on the verdict: the stages may use the unreserved pool plus what
 * their functions reserve now (a deploy replaces their own reservations; every other function's stay). It stops reservations Lambda
 * would refuse mid-deploy (CloudFormation would roll back) and needs the account cannot serve (503).
 */
import { capacityProblems, fmt, type StageInAccount, sum } from '../cdk/capacity.ts';

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
  const ownReserved = sum(Object.values(account.reservedNow));
  const usable = account.unreserved + ownReserved;
  const problems = capacityProblems(stages.map((s) => ({ ...s, accountConcurrency: usable }))).filter((p) => p.includes(`"${stage}"`));
  if (problems.length === 0) return { verdict: 'proceed', message: '' };
  return {
    verdict: 'stop',
    message:
      `Not deploying ${stage}: the account's Lambda quota of concurrent executions in this region (AccountLimit.ConcurrentExecutions) ` +
      `is ${fmt(account.quota)}, other functions reserve ${fmt(account.quota - usable)} of it and ${fmt(account.unreserved)} are unreserved ` +
      `(UnreservedConcurrentExecutions)${ownReserved > 0 ? `, besides ${fmt(ownReserved)} the stages reserve now` : ''}: ` +
      `${fmt(usable)} for the stages, taken as their accountConcurrency. ${problems.join(' ')} ` +
      `Or, knowing the account better, deploy with ${SKIP_CHECK_FLAG}.`,
  };
}
