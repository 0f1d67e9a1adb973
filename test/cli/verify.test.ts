/**
 * `npm run verify` against the local API (its answers) and AWS's APIs faked on 127.0.0.1, reached
 * by the real SDK clients (AWS_ENDPOINT_URL): what it prints for a stage that keeps its promises and
 * for one that breaks some; the TLS check against servers that refuse and accept TLS 1.0; and the
 * probe's handler, which runs the same answer checks with its key from a faked Secrets Manager.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_KEY_PATTERN } from '#lib/auth/api-keys.ts';
import { stageCapacity } from '../../infra/cdk/capacity.ts';
import { readStageSettings } from '../../infra/cdk/stages.ts';
import { handler as probe, oldTlsRefused, runChecks } from '../../infra/cli/stage-checks.ts';
import { expected, main } from '../../infra/cli/verify.ts';
import { startTestApi, type TestApi } from '../support/local-api.ts';

let api: TestApi;
let edge: Server;
let aws: Server;
const url = (server: Server) => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const listen = (server: Server) => new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const close = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));
const body = async (request: IncomingMessage) => {
  let text = '';
  for await (const chunk of request) text += chunk;
  return text;
};

/** What the fake account answers; each test sets what it breaks. */
const account = { redact: true, alarmState: 'OK', burst: 0, stage: 'staging' as 'staging' | 'production' };
/** WAF's log as the edge writes it: a record per request with a malformed key, which WAF blocks. */
const wafLog: string[] = [];
const targets: string[] = [];

beforeAll(async () => {
  api = await startTestApi();
  // The edge in front of the local API: logs what WAF would block, with the header redacted or not.
  edge = createServer(async (request, response) => {
    const authorization = request.headers.authorization ?? '';
    if (!API_KEY_PATTERN.test(authorization.replace(/^Bearer /, ''))) {
      const value = account.redact ? 'REDACTED' : authorization;
      wafLog.push(JSON.stringify({ httpRequest: { uri: request.url, headers: [{ name: 'authorization', value }] } }));
    }
    const headers = authorization ? { authorization } : undefined;
    const answer = await fetch(`${api.url.replace(/\/v1$/, '')}${request.url}`, { headers });
    response.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
    response.end(await answer.text());
  });
  aws = createServer(async (request, response) => {
    const target = request.headers['x-amz-target'] as string | undefined;
    const text = await body(request);
    targets.push(target ?? `${request.method} ${request.url?.split('?')[0]}`);
    const json = (value: unknown) => {
      response.writeHead(200, { 'content-type': 'application/x-amz-json-1.1' });
      response.end(JSON.stringify(value));
    };
    const settings = readStageSettings(account.stage, () => undefined);
    const model = expected(settings, '', 0, false);
    if (text.includes('Action=DescribeStacks')) {
      const outputs = {
        BaseUrl: `${url(edge)}/v1`,
        ExecuteApiBaseUrl: `${url(edge)}/v1`,
        RestApiId: 'abc123',
        ApiKeysTableName: api.stack.tableNames.apiKeys,
      };
      const members = Object.entries(outputs).map(
        ([k, v]) => `<member><OutputKey>${k}</OutputKey><OutputValue>${v}</OutputValue></member>`,
      );
      response.writeHead(200, { 'content-type': 'text/xml' });
      response.end(
        '<DescribeStacksResponse xmlns="http://cloudformation.amazonaws.com/doc/2010-05-15/"><DescribeStacksResult><Stacks><member>' +
          `<StackName>PetStore-${account.stage}</StackName><StackStatus>UPDATE_COMPLETE</StackStatus><CreationTime>2026-01-01T00:00:00Z</CreationTime>` +
          `<Outputs>${members.join('')}</Outputs></member></Stacks></DescribeStacksResult></DescribeStacksResponse>`,
      );
    } else if (request.url === `/restapis/abc123/stages/${account.stage}`) {
      const methodSettings = Object.fromEntries(
        Object.entries(model.throttles).map(([key, t], i) => [
          key === '*/*' ? key : `~1${key.replaceAll('/', '~1').replace(/~1(\w+)$/, '/$1')}`,
          { throttlingRateLimit: t.rateLimit, throttlingBurstLimit: t.burstLimit + (i === 0 ? account.burst : 0) },
        ]),
      );
      json({ stageName: account.stage, methodSettings });
    } else if (target === 'AWSWAF_20190729.GetWebACLForResource') {
      const rules = (model.webAclLimits ?? []).map((Limit, i) => ({
        Name: `r${i}`,
        Priority: i,
        Statement: { RateBasedStatement: { Limit, AggregateKeyType: 'IP' } },
      }));
      json({ WebACL: { Name: 'acl', Id: 'id', ARN: 'arn:aws:wafv2:eu-west-1:123456789012:regional/webacl/acl/id', Rules: rules } });
    } else if (target === 'AWSWAF_20190729.GetLoggingConfiguration') {
      const LogDestinationConfigs = ['arn:aws:logs:eu-west-1:123456789012:log-group:aws-waf-logs-PetStore-staging'];
      json({
        LoggingConfiguration: { ResourceArn: 'acl', LogDestinationConfigs, RedactedFields: [{ SingleHeader: { Name: 'authorization' } }] },
      });
    } else if (target === 'Logs_20140328.FilterLogEvents') {
      const { filterPattern, logGroupName } = JSON.parse(text) as { filterPattern: string; logGroupName: string };
      expect(logGroupName).toBe('aws-waf-logs-PetStore-staging');
      const marker = filterPattern.replaceAll('"', '');
      json({ events: wafLog.filter((r) => r.includes(marker)).map((message) => ({ message })) });
    } else if (target === 'GraniteServiceVersion20100801.DescribeAlarms') {
      response.writeHead(200, { 'content-type': 'application/x-amz-json-1.0' });
      response.end(
        JSON.stringify({ MetricAlarms: [{ AlarmName: `PetStore-${account.stage}-api-5xx-rate`, StateValue: account.alarmState }] }),
      );
    } else if (target === 'CodeDeploy_20141006.GetDeploymentGroup') {
      const { deploymentGroupName } = JSON.parse(text) as { deploymentGroupName: string };
      json({
        deploymentGroupInfo: {
          deploymentGroupName,
          deploymentConfigName: model.canary?.config,
          alarmConfiguration: { enabled: true, alarms: [{ name: 'a' }] },
          autoRollbackConfiguration: { enabled: true, events: ['DEPLOYMENT_FAILURE', 'DEPLOYMENT_STOP_ON_ALARM'] },
        },
      });
    } else if (target === 'secretsmanager.GetSecretValue') {
      json({ Name: 'PetStore-staging/probe-key', SecretString: `${api.apiKey}\n` });
    } else {
      response.writeHead(400, { 'content-type': 'application/json', 'x-amzn-errortype': 'UnknownOperationException' });
      response.end('{}');
    }
  });
  await Promise.all([listen(edge), listen(aws)]);
  Object.assign(process.env, {
    AWS_ENDPOINT_URL: url(aws),
    AWS_ENDPOINT_URL_DYNAMODB: api.stack.dynamodbEndpoint,
    AWS_REGION: 'eu-west-1',
    AWS_ACCESS_KEY_ID: 'AKIDTEST',
    AWS_SECRET_ACCESS_KEY: 'test',
    AWS_EC2_METADATA_DISABLED: 'true',
  });
}, 120_000);

afterAll(async () => {
  await Promise.all([close(edge), close(aws)]);
  await api.close();
});

const verify = async (...args: string[]) => {
  const lines: string[] = [];
  const code = await main(['--log-wait', '0', ...args], (line) => void lines.push(line));
  return { code, lines, line: (name: string) => lines.find((l) => l.includes(name)) ?? '' };
};

describe('npm run verify', () => {
  it('prints every check of a stage that keeps its promises as held, or unmeasurable with the reason, and exits 0', async () => {
    Object.assign(account, { stage: 'staging', redact: true, alarmState: 'OK', burst: 0 });
    const { code, lines, line } = await verify('--stage', 'staging');
    expect(code, lines.join('\n')).toBe(0);
    for (const name of [
      'a keyless request gets 401 in the Error shape: 401',
      'an unknown route gets 404 in the Error shape: 404',
      'a keyed list of pets gets 200: 200, a list',
      "the gateway's throttles are the model's",
      "the web ACL's rate limits are the model's",
      'alarms exist and none is in ALARM: 1 alarms',
      'WAF logs what it blocks, with the key redacted: 1 record(s), no key',
    ]) {
      expect(line(name), name).toMatch(/^held/);
    }
    expect(line('refuses TLS 1.0 and 1.1')).toMatch(/^unmeasurable .*http: is not TLS/);
    expect(line("a blocked source gets WAF's 429")).toMatch(/^unmeasurable .*--from-blocked-source/);
    expect(line('the execute-api endpoint')).toMatch(/^unmeasurable .*no custom domain/);
    expect(lines.at(-1)).toMatch(/^staging: \d+ held, 0 broken, \d+ unmeasurable\.$/);
    expect(targets).toContain('Logs_20140328.FilterLogEvents');
    expect(targets).not.toContain('CodeDeploy_20141006.GetDeploymentGroup');
  }, 120_000);

  it('revokes the key it issued for the run', async () => {
    const { code, lines } = await verify('--stage', 'staging');
    expect(code, lines.join('\n')).toBe(0);
    const keys: string[] = [];
    const { main: keysCli } = await import('../../infra/cli/keys.ts');
    await keysCli(['list', '--stage', 'staging'], (l) => void keys.push(l));
    const verifyKeys = keys
      .join('\n')
      .split('\n')
      .filter((l) => /\bverify\b/.test(l));
    expect(verifyKeys.length).toBeGreaterThan(0);
    for (const row of verifyKeys) expect(row).toMatch(/revoked/);
  }, 120_000);

  it("prints what production breaks, the model's figure beside the deployed one, and exits 1", async () => {
    Object.assign(account, { stage: 'production', redact: false, alarmState: 'ALARM', burst: 1 });
    const { code, line } = await verify('--stage', 'production');
    expect(code).toBe(1);
    const { burstLimit, rateLimit } = stageCapacity(readStageSettings('production', () => undefined)).apiThrottle;
    expect(line("the gateway's throttles")).toBe(
      `broken       the gateway's throttles are the model's: */*: ${rateLimit}/${burstLimit + 1}, model ${rateLimit}/${burstLimit}`,
    );
    expect(line('none is in ALARM')).toMatch(/^broken .*in ALARM: PetStore-production-api-5xx-rate$/);
    expect(line('WAF logs what it blocks')).toMatch(/^broken .*the key is in the log$/);
    expect(line('each function deploys through the canary')).toMatch(/^held .*CodeDeployDefault\.LambdaCanary10Percent15Minutes$/);
  }, 120_000);
});

describe('the TLS check', () => {
  const fixture = (name: string) => readFileSync(fileURLToPath(new URL(`../fixtures/${name}`, import.meta.url)));
  const tlsServer = async (minVersion: 'TLSv1' | 'TLSv1.2') => {
    const server = createTlsServer({
      key: fixture('self-signed.key'),
      cert: fixture('self-signed.crt'),
      minVersion,
      ciphers: 'DEFAULT@SECLEVEL=0',
    });
    server.on('tlsClientError', () => undefined);
    await listen(server);
    return server;
  };

  it('holds against a server that refuses TLS 1.0 and 1.1, and is broken by one that accepts them', async () => {
    const [modern, old] = await Promise.all([tlsServer('TLSv1.2'), tlsServer('TLSv1')]);
    try {
      const at = (server: Server) => `https://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
      const [refused, accepted] = await runChecks({ ...oldTlsRefused(at(modern)), ...oldTlsRefused(at(old)) });
      expect(refused?.state, refused?.reason).toBe('held');
      expect(accepted).toMatchObject({ state: 'broken', reason: expect.stringMatching(/^accepted TLSv1(\.1)?$/) });
    } finally {
      await Promise.all([close(modern), close(old)]);
    }
  });
});

describe('the probe', () => {
  it('asks the answers with the key from its secret, and fails the run when one is not held', async () => {
    Object.assign(process.env, { PROBE_BASE_URL: `${url(edge)}/v1`, PROBE_KEY_SECRET: 'PetStore-staging/probe-key' });
    const report = await probe();
    expect(report).toContain('held a keyed list of pets gets 200: 200, a list');
    expect(targets).toContain('secretsmanager.GetSecretValue');
    process.env.PROBE_BASE_URL = `${url(aws)}/v1`;
    await expect(probe()).rejects.toThrow(/broken a keyless request gets 401 in the Error shape: got 400/);
  });
});
