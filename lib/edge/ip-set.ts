/** The automatic blocks' IP set, replaced whole under the lock token of the GetIPSet before (docs/operators.md). */
import { GetIPSetCommand, UpdateIPSetCommand, WAFOptimisticLockException, type WAFV2Client } from '@aws-sdk/client-wafv2';

export interface IpSetId {
  readonly Name: string;
  readonly Id: string;
  readonly Scope: 'REGIONAL' | 'CLOUDFRONT';
}

/** Replaces the set's addresses with `next(current)`; tries `attempts` times on a lock conflict. */
export async function updateIpSet(
  client: WAFV2Client,
  id: IpSetId,
  next: (current: string[]) => string[],
  attempts = 5,
): Promise<string[]> {
  for (let attempt = 1; ; attempt++) {
    const { IPSet, LockToken } = await client.send(new GetIPSetCommand(id));
    const addresses = next(IPSet?.Addresses ?? []);
    try {
      await client.send(new UpdateIPSetCommand({ ...id, Addresses: addresses, LockToken }));
      return addresses;
    } catch (error) {
      if (!(error instanceof WAFOptimisticLockException) || attempt >= attempts) throw error;
    }
  }
}
