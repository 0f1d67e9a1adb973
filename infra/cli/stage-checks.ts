/**
 * What a deployed stage promises that only AWS can show, as one list of checks for the two that run
 * them: `npm run verify` after a deploy (verify.ts, with the operator's credentials) and the stage's
 * probe every few minutes from outside (constructs/probe.ts, the answers anyone can ask for). Each
 * check is held, broken or unmeasurable, with the reason (docs/operators.md, "Verify a deploy").
 * No AWS SDK and no CDK here: verify reads the account (`Account`) and the model (`Expected`) and
 * hands them in, so the probe's bundle holds this file and fetch alone.
 */
import { isIP } from 'node:net';
import { connect } from 'node:tls';

export type State = 'held' | 'broken' | 'unmeasurable';
type Outcome = readonly [State, string];
export interface Check {
  readonly name: string;
  run(): Promise<Outcome>;
}
export interface Verdict {
  readonly name: string;
  readonly state: State;
  readonly reason: string;
}

/** Each check on its own: one that throws (AWS refused a read, the network failed) is unmeasurable, with why. */
export function runChecks(checks: readonly Check[]): Promise<Verdict[]> {
  return Promise.all(
    checks.map(async ({ name, run }) => {
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
export function answerChecks(baseUrl: string, apiKey?: string): Check[] {
  return [
    { name: 'a keyless request gets 401 in the Error shape', run: async () => errorAnswer(await fetch(`${baseUrl}/pets`), 401) },
    { name: 'an unknown route gets 404 in the Error shape', run: async () => errorAnswer(await fetch(`${baseUrl}/no-such-route`), 404) },
    {
      name: 'a keyed list of pets gets 200',
      run: async () => {
        if (!apiKey) return ['unmeasurable', 'no key to ask with'];
        const response = await fetch(`${baseUrl}/pets?limit=1`, { headers: { authorization: `Bearer ${apiKey}` } });
        const body = (await response.json().catch(() => undefined)) as unknown;
        return outcome(response.status === 200 && Array.isArray(body), '200, a list', `got ${response.status} ${JSON.stringify(body)}`);
      },
    },
  ];
}

/** A TLS 1.0 or 1.1 handshake with `url`'s host: the stage's security policy must refuse it. */
export function oldTlsRefused(url: string): Check {
  return {
    name: `${new URL(url).host} refuses TLS 1.0 and 1.1`,
    run: () => {
      const { protocol, hostname, port } = new URL(url);
      if (protocol !== 'https:') return Promise.resolve(['unmeasurable', `${protocol} is not TLS`]);
      return new Promise((resolve) => {
        // SECLEVEL=0: this client must be able to offer what the server must refuse. Only the
        // handshake happens (nothing is sent), so the certificate does not matter here.
        const socket = connect({
          host: hostname,
          port: Number(port || 443),
          ...(isIP(hostname) ? {} : { servername: hostname }),
          minVersion: 'TLSv1',
          maxVersion: 'TLSv1.1',
          ciphers: 'DEFAULT@SECLEVEL=0',
          rejectUnauthorized: false,
          timeout: 10_000,
        });
        const done = (result: Outcome) => {
          resolve(result);
          socket.destroy();
        };
        socket.once('secureConnect', () => done(['broken', `accepted ${socket.getProtocol()}`]));
        socket.once('timeout', () => done(['unmeasurable', 'no answer in 10 s']));
        socket.once('error', (error: Error & { code?: string }) =>
          done(
            /protocol|version|alert|handshake/i.test(error.message) ? ['held', `refused (${error.code})`] : ['unmeasurable', error.message],
          ),
        );
      });
    },
  };
}

/** A throttle as API Gateway reports a method setting. */
export interface Throttle {
  readonly throttlingRateLimit?: number | undefined;
  readonly throttlingBurstLimit?: number | undefined;
}

/** What verify reads of the deployed stage (verify.ts, through the AWS SDK). */
export interface Account {
  /** GetStage's method settings by `path/METHOD` (`*\/*`: the stage's), paths without their leading slash. */
  methodSettings(): Promise<Record<string, Throttle>>;
  /** The web ACL on the stage (GetWebACLForResource): its rate-based rules' limits; undefined: none. */
  webAclLimits(): Promise<number[] | undefined>;
  /** GetLoggingConfiguration: where WAF logs and which headers it redacts. */
  wafLogging(): Promise<{ destinations: string[]; redactedHeaders: string[] } | undefined>;
  /** The WAF log records that contain `text` (FilterLogEvents). */
  wafLogRecords(text: string): Promise<string[]>;
  /** The stage's alarms and their states (DescribeAlarms). */
  alarms(): Promise<{ name: string; state: string }[]>;
  /** Production's CodeDeploy groups (GetDeploymentGroup). */
  deploymentGroups(): Promise<{ name: string; config: string; alarms: number; rollbackOnAlarm: boolean }[]>;
}

/** What verify expects, from the settings and the capacity model (capacity.ts). */
export interface Expected {
  readonly stage: string;
  /** The stage's default method setting, and the docs methods' by `path/METHOD`. */
  readonly throttles: Readonly<Record<string, { rateLimit: number; burstLimit: number }>>;
  /** The web ACL's rate-based limits, or undefined when the stage has none. */
  readonly webAclLimits?: readonly number[] | undefined;
  /** Production: every function's deployment group and the canary's configuration. */
  readonly canary?: { readonly groups: readonly string[]; readonly config: string } | undefined;
  /** With a custom domain: the execute-api address and whether the setting turns it off. */
  readonly defaultEndpoint?: { readonly url: string; readonly disabled: boolean } | undefined;
  /** How long to wait for WAF's log record of the request verify provokes. */
  readonly logWaitSeconds: number;
  /** Run from an address in blockedSources: its keyless request must get WAF's 429. */
  readonly fromBlockedSource: boolean;
}

const sorted = (values: readonly number[]) => [...values].sort((a, b) => a - b).join(', ');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The claims about the stage's AWS resources, read from the account and compared with the model. */
export function accountChecks(baseUrl: string, account: Account, expected: Expected): Check[] {
  const checks: Check[] = [
    {
      name: "the gateway's throttles are the model's",
      run: async () => {
        const settings = await account.methodSettings();
        const wrong = Object.entries(expected.throttles).flatMap(([key, { rateLimit, burstLimit }]) => {
          const got = settings[key];
          return got?.throttlingRateLimit === rateLimit && got.throttlingBurstLimit === burstLimit
            ? []
            : [`${key}: ${got?.throttlingRateLimit}/${got?.throttlingBurstLimit}, model ${rateLimit}/${burstLimit}`];
        });
        return outcome(wrong.length === 0, `${Object.keys(expected.throttles).length} method settings`, wrong.join('; '));
      },
    },
    {
      name: "the web ACL's rate limits are the model's",
      run: async () => {
        const limits = await account.webAclLimits();
        if (!expected.webAclLimits) return outcome(limits === undefined, 'no web ACL (webAcl off)', 'a web ACL the settings do not have');
        const [got, model] = [sorted(limits ?? []), sorted(expected.webAclLimits)];
        return outcome(got === model, `per minute: ${got}`, `per minute: ${limits ? got : 'no web ACL'}, model ${model}`);
      },
    },
    {
      name: 'alarms exist and none is in ALARM',
      run: async () => {
        const alarms = await account.alarms();
        const firing = alarms.filter((a) => a.state === 'ALARM').map((a) => a.name);
        if (alarms.length === 0) return ['broken', `no alarm named PetStore-${expected.stage}-*`];
        return outcome(firing.length === 0, `${alarms.length} alarms, none in ALARM`, `in ALARM: ${firing.join(', ')}`);
      },
    },
  ];
  if (expected.webAclLimits) {
    checks.push(
      {
        name: 'WAF logs what it blocks with the Authorization header redacted',
        run: async () => {
          const logging = await account.wafLogging();
          const redacted = logging?.redactedHeaders.some((h) => h.toLowerCase() === 'authorization') ?? false;
          return outcome(
            redacted && logging !== undefined && logging.destinations.length > 0,
            `to ${logging?.destinations.join(', ')}`,
            logging ? `redacted: ${logging.redactedHeaders.join(', ') || 'nothing'}` : 'no logging configuration',
          );
        },
      },
      {
        name: "WAF's log of a request it blocks holds no key",
        run: async () => {
          // A malformed key, which WAF's keyless rule blocks and logs; the marker finds the record.
          const marker = `verify${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
          const key = `${marker}-secret-${Math.random().toString(36).slice(2)}`;
          await fetch(`${baseUrl}/pets?verify=${marker}`, { headers: { authorization: `Bearer ${key}` } });
          for (let waited = 0; ; waited += 10) {
            const records = await account.wafLogRecords(marker);
            if (records.length > 0) {
              return outcome(
                !records.some((r) => r.includes(key)),
                `${records.length} record(s), the key redacted`,
                'the key is in the log',
              );
            }
            if (waited >= expected.logWaitSeconds)
              return ['unmeasurable', `no record in ${expected.logWaitSeconds} s (WAF delivers logs late)`];
            await sleep(10_000);
          }
        },
      },
    );
  }
  if (expected.canary) {
    const { groups, config } = expected.canary;
    checks.push({
      name: 'each function deploys through the canary, rolled back on alarm',
      run: async () => {
        const found = await account.deploymentGroups();
        const wrong = groups.flatMap((name) => {
          const group = found.find((g) => g.name === name);
          if (!group) return [`${name}: missing`];
          return group.config === config && group.alarms > 0 && group.rollbackOnAlarm ? [] : [`${name}: ${JSON.stringify(group)}`];
        });
        return outcome(wrong.length === 0, `${groups.length} groups, ${config}`, wrong.join('; '));
      },
    });
  }
  checks.push({
    name: "a blocked source gets WAF's 429 in the Error shape",
    run: async () =>
      expected.fromBlockedSource
        ? errorAnswer(await fetch(`${baseUrl}/pets`), 429)
        : ['unmeasurable', 'only from an address in blockedSources (--from-blocked-source)'],
  });
  const endpoint = expected.defaultEndpoint;
  checks.push({
    name: 'the execute-api endpoint is as the settings say',
    run: async () => {
      if (!endpoint) return ['unmeasurable', 'no custom domain: the execute-api address is the base address'];
      const { status } = await fetch(`${endpoint.url}/pets`);
      const expect = endpoint.disabled ? 403 : 401;
      return outcome(
        status === expect,
        endpoint.disabled ? 'off (403)' : 'open (disableExecuteApiEndpoint false)',
        `got ${status}, expected ${expect}`,
      );
    },
  });
  return checks;
}

/**
 * The stage's probe (constructs/probe.ts bundles this as its canary's handler): the answers, asked
 * with its own key from Secrets Manager; any answer not held fails the run, and the alarm.
 */
export async function probe(): Promise<string> {
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
