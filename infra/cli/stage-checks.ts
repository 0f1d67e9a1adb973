/**
 * What a deployed stage promises that only AWS can show, one list of checks for `npm run verify` (verify.ts) and the stage's probe
 * (constructs/probe.ts: the answers), each held, broken or unmeasurable with the reason (docs/operators.md, "Verify a deploy").
 */
import { isIP } from 'node:net';
import { connect } from 'node:tls';

export type State = 'held' | 'broken' | 'unmeasurable';
type Outcome = readonly [State, string];
/** Checks by the claim each tests. */
export type Checks = Record<string, () => Promise<Outcome>>;

/** Each check on its own: one that throws (AWS refused a read, the network failed) is unmeasurable, with why. */
export function runChecks(checks: Checks): Promise<{ name: string; state: State; reason: string }[]> {
  return Promise.all(
    Object.entries(checks).map(async ([name, run]) => {
      const [state, reason] = await run().catch((error: unknown): Outcome => ['unmeasurable', (error as Error).message]);
      return { name, state, reason };
    }),
  );
}

const outcome = (ok: boolean, held: string, broken: string): Outcome => (ok ? ['held', held] : ['broken', broken]);

/** `response` is `status` with the service's Error body `{code, message, status}`. */
async function errorAnswer(response: Response, status: number): Promise<Outcome> {
  const text = await response.text();
  const body = JSON.parse(/^\s*\{/.test(text) ? text : '{}') as { code?: unknown; message?: unknown; status?: unknown };
  const shaped = typeof body.code === 'string' && typeof body.message === 'string' && body.status === status;
  return outcome(response.status === status && shaped, `${status} ${body.code}`, `got ${response.status} ${text.slice(0, 160)}`);
}

/** The answers anyone can ask the stage for at `baseUrl` (ending in /v1): what verify and the probe both check. */
export const answerChecks = (baseUrl: string, apiKey?: string): Checks => ({
  'a keyless request gets 401 in the Error shape': async () => errorAnswer(await fetch(`${baseUrl}/pets`), 401),
  'an unknown route gets 404 in the Error shape': async () => errorAnswer(await fetch(`${baseUrl}/no-such-route`), 404),
  'a keyed list of pets gets 200': async () => {
    if (!apiKey) return ['unmeasurable', 'no key to ask with'];
    const response = await fetch(`${baseUrl}/pets?limit=1`, { headers: { authorization: `Bearer ${apiKey}` } });
    const body = (await response.json().catch(() => undefined)) as unknown;
    return outcome(response.status === 200 && Array.isArray(body), '200, a list', `got ${response.status} ${JSON.stringify(body)}`);
  },
});

/** A TLS 1.0 or 1.1 handshake with `url`'s host: the stage's security policy must refuse it. */
export const oldTlsRefused = (url: string): Checks => ({
  [`${new URL(url).host} refuses TLS 1.0 and 1.1`]: () => {
    const { protocol, hostname, port } = new URL(url);
    if (protocol !== 'https:') return Promise.resolve(['unmeasurable', `${protocol} is not TLS`]);
    return new Promise((resolve) => {
      // SECLEVEL=0: this client must offer what the server must refuse. Only a handshake, nothing
      // sent over it, so the certificate does not matter.
      const options = { minVersion: 'TLSv1', maxVersion: 'TLSv1.1', ciphers: 'DEFAULT@SECLEVEL=0', rejectUnauthorized: false } as const;
      const server = { host: hostname, port: Number(port || 443), ...(isIP(hostname) ? {} : { servername: hostname }) };
      const socket = connect({ ...server, ...options, timeout: 10_000 });
      const done = (result: Outcome) => {
        resolve(result);
        socket.destroy();
      };
      socket.once('secureConnect', () => done(['broken', `accepted ${socket.getProtocol()}`]));
      socket.once('timeout', () => done(['unmeasurable', 'no answer in 10 s']));
      const refused = /protocol|version|alert|handshake/i;
      socket.once('error', (e: Error & { code?: string }) =>
        done(refused.test(e.message) ? ['held', `refused (${e.code})`] : ['unmeasurable', e.message]),
      );
    });
  },
});

/** What verify reads of the stage through the SDK (verify.ts); each read is named for what it asks AWS. */
export interface Account {
  methodSettings(): Promise<Record<string, { throttlingRateLimit?: number | undefined; throttlingBurstLimit?: number | undefined }>>;
  webAclLimits(): Promise<number[] | undefined>;
  redactedHeaders(): Promise<string[] | undefined>;
  wafLogRecords(text: string): Promise<string[]>;
  alarms(): Promise<{ name: string; state: string }[]>;
  deploymentGroups(): Promise<{ name: string; config: string; alarms: number; rollbackOnAlarm: boolean }[]>;
}

/** What the settings and the capacity model say the stage holds (verify.ts, `expected`). */
export interface Expected {
  readonly throttles: Record<string, { rateLimit: number; burstLimit: number }>;
  readonly webAclLimits?: number[] | undefined;
  readonly canary?: { config: string } | undefined;
  readonly defaultEndpoint?: { url: string; disabled: boolean } | undefined;
  readonly logWaitSeconds: number;
  readonly fromBlockedSource: boolean;
}

const sorted = (values: readonly number[]) => [...values].sort((a, b) => a - b).join(', ');

/** The claims about the stage's AWS resources: what the account says, against the model. */
export function accountChecks(baseUrl: string, account: Account, expected: Expected): Checks {
  const { webAclLimits: model, canary, defaultEndpoint: endpoint } = expected;
  const checks: Checks = {
    "the gateway's throttles are the model's": async () => {
      const settings = await account.methodSettings();
      const wrong = Object.entries(expected.throttles).flatMap(([key, { rateLimit, burstLimit }]) => {
        const got = settings[key];
        if (got?.throttlingRateLimit === rateLimit && got.throttlingBurstLimit === burstLimit) return [];
        return [`${key}: ${got?.throttlingRateLimit}/${got?.throttlingBurstLimit}, model ${rateLimit}/${burstLimit}`];
      });
      return outcome(wrong.length === 0, `${Object.keys(expected.throttles).length} method settings`, wrong.join('; '));
    },
    "the web ACL's rate limits are the model's": async () => {
      const limits = await account.webAclLimits();
      if (!model) return outcome(limits === undefined, 'no web ACL (webAcl off)', 'a web ACL the settings do not have');
      const got = limits ? `per minute: ${sorted(limits)}` : 'no web ACL';
      return outcome(got === `per minute: ${sorted(model)}`, got, `${got}, model ${sorted(model)}`);
    },
    'alarms exist and none is in ALARM': async () => {
      const alarms = await account.alarms();
      const firing = alarms.filter((a) => a.state === 'ALARM').map((a) => a.name);
      if (alarms.length === 0) return ['broken', 'the stage has no alarms'];
      return outcome(firing.length === 0, `${alarms.length} alarms, none in ALARM`, `in ALARM: ${firing.join(', ')}`);
    },
    "a blocked source gets WAF's 429 in the Error shape": async () =>
      expected.fromBlockedSource
        ? errorAnswer(await fetch(`${baseUrl}/pets`), 429)
        : ['unmeasurable', 'only from an address in blockedSources (--from-blocked-source)'],
    'the execute-api endpoint is as the settings say': async () => {
      if (!endpoint) return ['unmeasurable', 'no custom domain: the execute-api address is the base address'];
      const { status } = await fetch(`${endpoint.url}/pets`);
      const [want, state] = endpoint.disabled ? [403, 'off (403)'] : [401, 'open (disableExecuteApiEndpoint false)'];
      return outcome(status === want, state, `got ${status}, expected ${want}`);
    },
  };
  if (model) {
    checks['WAF logs what it blocks, with the key redacted'] = async () => {
      const redacted = await account.redactedHeaders();
      if (!redacted?.some((h) => h.toLowerCase() === 'authorization')) return ['broken', `redacted: ${redacted ?? 'no logging'}`];
      // A malformed key, which WAF's keyless rule blocks and logs; the marker finds the record.
      const marker = `verify${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
      const key = `${marker}-secret-${Math.random().toString(36).slice(2)}`;
      await fetch(`${baseUrl}/pets?verify=${marker}`, { headers: { authorization: `Bearer ${key}` } });
      for (let waited = 0; ; waited += 10) {
        const records = await account.wafLogRecords(marker);
        if (records.length > 0)
          return outcome(!records.some((r) => r.includes(key)), `${records.length} record(s), no key`, 'the key is in the log');
        if (waited >= expected.logWaitSeconds)
          return ['unmeasurable', `redaction set; no record in ${expected.logWaitSeconds} s (WAF logs late)`];
        await new Promise((resolve) => setTimeout(resolve, 10_000));
      }
    };
  }
  if (canary) {
    checks['each function deploys through the canary, rolled back on alarm'] = async () => {
      const groups = await account.deploymentGroups();
      const wrong = groups.filter((g) => g.config !== canary.config || g.alarms === 0 || !g.rollbackOnAlarm);
      return outcome(wrong.length === 0, `${groups.length} groups, ${canary.config}`, wrong.map((g) => JSON.stringify(g)).join('; '));
    };
  }
  return checks;
}

/**
 * The probe's canary handler (constructs/probe.ts bundles this file): the answers, asked with its
 * own key from Secrets Manager; any answer not held fails the run, and the alarm.
 */
export async function handler(): Promise<string> {
  // Lambda's runtime carries the SDK; the probe's bundle leaves it out.
  const { GetSecretValueCommand, SecretsManagerClient } = await import('@aws-sdk/client-secrets-manager');
  const client = new SecretsManagerClient({});
  const { SecretString: key } = await client.send(new GetSecretValueCommand({ SecretId: process.env.PROBE_KEY_SECRET }));
  client.destroy();
  const verdicts = await runChecks(answerChecks(process.env.PROBE_BASE_URL ?? '', key?.trim()));
  const report = verdicts.map((v) => `${v.state} ${v.name}: ${v.reason}`).join('\n');
  if (verdicts.some((v) => v.state !== 'held')) throw new Error(report);
  return report;
}
