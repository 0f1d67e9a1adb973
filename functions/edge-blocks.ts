/**
 * The stage's access log, through its subscription filter: blocks at the edge, in the IP set this
 * function owns, the addresses the flood detector names, and releases those whose block ended
 * (docs/operators.md, "Automatic blocks"). A new instance adopts the set's addresses as blocked from its start.
 */
import { gunzipSync } from 'node:zlib';
import { WAFV2Client } from '@aws-sdk/client-wafv2';
import { FLOOD_ENV, FloodDetector, type FloodRule, hostCidr, type RequestLine } from '#lib/edge/flood-detector.ts';
import { updateIpSet } from '#lib/edge/ip-set.ts';

const rule = JSON.parse(process.env[FLOOD_ENV.rule] ?? '') as FloodRule;
const ipSet = { Name: process.env[FLOOD_ENV.ipSetName] ?? '', Id: process.env[FLOOD_ENV.ipSetId] ?? '', Scope: 'REGIONAL' } as const;
const detector = new FloodDetector(rule);
const client = new WAFV2Client({});
let adopted = false;

/** `awslogs`: CloudWatch Logs' batch, base64 of gzipped JSON; a scheduled call has none and only releases. */
export const handler = async (event: { readonly awslogs?: { readonly data: string } }): Promise<void> => {
  const batch = event.awslogs ? JSON.parse(gunzipSync(Buffer.from(event.awslogs.data, 'base64')).toString('utf8')) : { logEvents: [] };
  const blocked: string[] = [];
  for (const { timestamp, message } of batch.logEvents as { timestamp: number; message: string }[]) {
    const line = JSON.parse(message) as RequestLine;
    if (detector.observe(line, timestamp)) blocked.push(line.sourceIp);
  }
  const now = Date.now();
  const released = detector.expire(now);
  if (adopted && blocked.length === 0 && released.length === 0) return;
  await updateIpSet(client, ipSet, (current) => {
    if (!adopted)
      detector.block(
        current.map((cidr) => cidr.replace(/\/\d+$/, '')),
        now,
      );
    return detector.blocked.map(hostCidr);
  });
  adopted = true;
  // Addresses only: a log line of this function never holds a request's headers.
  for (const address of blocked) console.log(JSON.stringify({ message: 'blocked', address, seconds: rule.blockSeconds }));
  for (const address of released) console.log(JSON.stringify({ message: 'released', address }));
};
