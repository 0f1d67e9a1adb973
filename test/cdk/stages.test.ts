/**
 * Stage settings from CDK context: defaults, cdk.json, `-c <stage>.<key>=…` overrides, and the
 * mistakes that must fail the synth instead of deploying something unintended.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cdkJsonContext, STAGE_NAMES, type StageName, readStageSettings, stackName } from '../../infra/cdk/stages.ts';
import { buildApp } from '../../infra/cdk/app.ts';

const read = (stage: StageName, context: Record<string, unknown> = {}) => readStageSettings(stage, (key) => context[key]);

const domain = {
  domainName: 'api.example.com',
  certificateArn: 'arn:aws:acm:us-east-1:123456789012:certificate/abc-123',
  hostedZoneId: 'Z123',
  hostedZoneName: 'example.com.',
};

describe('stage settings', () => {
  it('names one stack per stage', () => {
    expect(STAGE_NAMES.map(stackName)).toEqual(['PetStore-staging', 'PetStore-production']);
  });

  it("defaults to cdk.json, production's API methods at a higher rate than staging's", () => {
    const stages = cdkJsonContext().stages as Record<StageName, Record<string, unknown>>;
    for (const stage of STAGE_NAMES) expect(read(stage)).toMatchObject(stages[stage]);
    expect(read('production').methodRateLimit).toBeGreaterThan(read('staging').methodRateLimit);
    expect(read('production').logRetentionDays).toBeGreaterThan(read('staging').logRetentionDays);
    expect(read('production').production).toBe(true);
    expect(read('staging').production).toBe(false);
    expect(read('staging').customDomain).toBeUndefined();
    expect(read('staging').alarmEmail).toBeUndefined();
  });

  it('reserves no concurrency and turns the web ACL on in both stages by default', () => {
    for (const stage of STAGE_NAMES) expect(read(stage)).toMatchObject({ reserveConcurrency: false, webAcl: true });
    expect(read('production', { 'production.reserveConcurrency': 'true' }).reserveConcurrency).toBe(true);
  });

  it('takes nested cdk.json values, then flat -c strings', () => {
    const settings = read('staging', {
      stages: { staging: { methodRateLimit: 60, burstSeconds: 3 } },
      'staging.burstSeconds': '1.5',
      'staging.alarmEmail': 'a@example.com',
    });
    expect(settings).toMatchObject({ methodRateLimit: 60, burstSeconds: 1.5, alarmEmail: 'a@example.com' });
  });

  it('accepts the stages object as a JSON string (-c stages=…)', () => {
    expect(read('production', { stages: JSON.stringify({ production: { logLevel: 'debug' } }) }).logLevel).toBe('debug');
  });

  it('reads allowed origins from a list or a comma-separated -c value; none by default', () => {
    expect(read('staging').allowedOrigins).toEqual([]);
    expect(read('staging', { 'staging.allowedOrigins': 'https://app.example.com, http://localhost:5173' }).allowedOrigins).toEqual([
      'https://app.example.com',
      'http://localhost:5173',
    ]);
    expect(read('production', { stages: { production: { allowedOrigins: ['https://app.example.com'] } } }).allowedOrigins).toEqual([
      'https://app.example.com',
    ]);
  });

  it('reads load-test sources, IPv4 and IPv6 CIDR blocks, from a list or a comma-separated -c value; none by default', () => {
    expect(read('staging').loadTestSources).toEqual([]);
    expect(read('staging', { 'staging.loadTestSources': '198.51.100.7/32, 2001:db8::/56,198.51.100.7/32' }).loadTestSources).toEqual([
      '198.51.100.7/32',
      '2001:db8::/56',
    ]);
    const blocks = [
      '198.51.100.0/24',
      '10.0.0.0/8',
      '2001:db8::/32',
      '2001:db8:0:0:8000::/65',
      '::ffff:198.51.100.0/120',
      '2001:db8::1/128',
    ];
    expect(read('staging', { 'staging.loadTestSources': blocks.join(',') }).loadTestSources).toEqual(blocks);
  });

  // WAF refuses a block with bits set past its prefix when it creates the IP set, late in a deploy.
  it.each([
    '0.0.0.0/0',
    '198.51.100.7',
    '198.51.100.7/33',
    '2001:db8::/129',
    'example.com/32',
    '198.51.100.7/32/1',
    '198.51.100.7/24',
    '10.1.0.0/8',
    '2001:db8::1/56',
    '2001:db8:0:0:8000::/64',
    '::ffff:198.51.100.1/120',
  ])('refuses %s as a load-test source', (cidr) => {
    expect(() => read('staging', { 'staging.loadTestSources': cidr })).toThrow(/loadTestSources" must be CIDR blocks such as/);
  });

  it('reads the compression threshold, 0 included (compress everything)', () => {
    expect(read('staging').minimumCompressionSizeBytes).toBe(1024);
    expect(read('staging', { 'staging.minimumCompressionSizeBytes': '0' }).minimumCompressionSizeBytes).toBe(0);
  });

  it('reads a complete custom domain, trimming the zone dot', () => {
    const flat = Object.fromEntries(Object.entries(domain).map(([k, v]) => [`production.${k}`, v]));
    expect(read('production', flat).customDomain).toEqual({ ...domain, hostedZoneName: 'example.com' });
  });

  it.each([
    [{ stages: { staging: { methodRateLimt: 5 } } }, /unknown key "methodRateLimt"/],
    [{ stages: { qa: {} } }, /unknown stage "qa"/],
    [{ 'staging.docsThrottlingRateLimit': 'fast' }, /must be a positive number/],
    [{ 'staging.burstSeconds': '0.5' }, /burstSeconds" must be a number of seconds from 1, got "0.5"/],
    [{ 'staging.methodRateLimit': '0' }, /methodRateLimit" must be a whole number of requests a second from 1, got "0"/],
    [{ 'staging.methodRateLimit': '50.5' }, /methodRateLimit" must be a whole number of requests a second from 1, got "50.5"/],
    [
      { 'staging.perKeyPerMinute': '3101' },
      /stage "staging" setting "perKeyPerMinute" must be from 10 \(WAF's floor\) to 3,100 \(what one API method admits/,
    ],
    [{ 'staging.methodRateLimit': '5' }, /setting "perKeyPerMinute" must be from 10 \(WAF's floor\) to 310 .*, got 400\./],
    [{ 'staging.perSourcePerMinute': '9' }, /perSourcePerMinute" must be from 10 \(WAF's floor\)/],
    [{ 'staging.docsPerSourcePerMinute': '400' }, /docsPerSourcePerMinute" must be from 10 \(WAF's floor and one page load\) to 310/],
    [{ 'staging.perKeyPerMinute': '40.5' }, /perKeyPerMinute" must be a whole number of requests a minute from 1, got "40.5"/],
    [{ 'staging.logLevel': 'loud' }, /logLevel/],
    [{ 'staging.alarmEmail': 'not-an-address' }, /not an e-mail address/],
    [{ 'staging.domainName': 'api.example.com' }, /needs all of/],
    [{ ...flatDomain('staging'), 'staging.domainName': 'api.other.org' }, /not inside hosted zone/],
    [{ ...flatDomain('staging'), 'staging.certificateArn': 'arn:aws:iam::1:role/x' }, /not an ACM certificate ARN/],
    [{ stages: '{nope' }, /not valid JSON/],
    [{ 'staging.account': '123456789012' }, /account and region together/],
    [{ 'staging.tracing': 'maybe' }, /tracing" must be true or false/],
    [{ 'staging.allowedOrigins': 'https://app.example.com/' }, /allowedOrigins" must be origins such as/],
    [{ 'staging.allowedOrigins': 'app.example.com' }, /allowedOrigins" must be origins such as/],
    [{ 'staging.allowedOrigins': 'https://App.example.com' }, /allowedOrigins" must be origins such as/],
    [{ 'staging.minimumCompressionSizeBytes': '-1' }, /minimumCompressionSizeBytes" must be a whole number of bytes from 0 to 10485760/],
    [{ 'staging.minimumCompressionSizeBytes': '1.5' }, /minimumCompressionSizeBytes" must be a whole number/],
    [{ 'staging.minimumCompressionSizeBytes': 20_000_000 }, /minimumCompressionSizeBytes" must be a whole number/],
    [{ 'staging.account': '12345', 'staging.region': 'eu-west-1' }, /12-digit AWS account id/],
    [{ 'staging.account': '123456789012', 'staging.region': 'Europe' }, /not an AWS region/],
    [{ 'staging.docsThrottlingBurstLimit': '10.5' }, /docsThrottlingBurstLimit" must be a whole number of requests from 1, got "10.5"/],
    [
      { 'staging.functionDurationMs': '0' },
      /functionDurationMs" must be a whole number of milliseconds from 1 to 10000 \(the functions' timeout\), got "0"/,
    ],
    [{ 'staging.functionDurationMs': '20000' }, /functionDurationMs" must be a whole number of milliseconds from 1 to 10000/],
    [{ 'staging.accountConcurrency': '-5' }, /accountConcurrency" must be a whole number of concurrent executions from 1, got "-5"/],
    [{ 'staging.reserveConcurrency': 'yes' }, /reserveConcurrency" must be true or false, got "yes"/],
    // Derived (infra/cdk/capacity.ts), or replaced by a limit of their own: not settings.
    [{ stages: { staging: { apiConcurrency: 330 } } }, /unknown key "apiConcurrency"/],
    [{ stages: { staging: { clientSharePercent: 10 } } }, /unknown key "clientSharePercent"/],
    [{ stages: { staging: { reservedConcurrency: 10 } } }, /unknown key "reservedConcurrency"/],
    [{ stages: { staging: { webAclPerKeyPerMinute: 600 } } }, /unknown key "webAclPerKeyPerMinute"/],
    [{ stages: { staging: { throttlingRateLimit: 50 } } }, /unknown key "throttlingRateLimit"/],
    [{ 'staging.docsThrottlingBurstLimit': '2' }, /docsThrottlingBurstLimit" must be at least docsThrottlingRateLimit/],
  ])('rejects %j', (context, error) => {
    expect(() => read('staging', context)).toThrow(error);
  });

  it('pins a stage to an account and region only when asked, so a deploy with other credentials fails', () => {
    expect(read('production').env).toBeUndefined();
    expect(read('production', { stages: { production: { account: '123456789012', region: 'eu-west-1' } } }).env).toEqual({
      account: '123456789012',
      region: 'eu-west-1',
    });
    const outdir = mkdtempSync(join(tmpdir(), 'petstore-infra-'));
    try {
      const { stacks } = buildApp({
        outdir,
        context: {
          ...cdkJsonContext(),
          'production.account': '123456789012',
          'production.region': 'eu-west-1',
          'aws:cdk:bundling-stacks': [],
        },
      });
      // The CLI refuses to deploy an environment-specific stack with credentials for another account.
      expect(stacks.production.environment).toBe('aws://123456789012/eu-west-1');
      expect([stacks.production.account, stacks.production.region]).toEqual(['123456789012', 'eu-west-1']);
      // Unpinned stays environment-agnostic: synth and the tests need no AWS account.
      expect(stacks.staging.environment).toBe('aws://unknown-account/unknown-region');
    } finally {
      rmSync(outdir, { recursive: true, force: true });
    }
  });

  it('rejects a log retention CloudWatch does not offer, at synth', () => {
    const outdir = mkdtempSync(join(tmpdir(), 'petstore-infra-'));
    try {
      expect(() => buildApp({ outdir, context: { 'staging.logRetentionDays': '15', 'aws:cdk:bundling-stacks': [] } })).toThrow(
        /logRetentionDays 15 is not a CloudWatch Logs retention/,
      );
    } finally {
      rmSync(outdir, { recursive: true, force: true });
    }
  });
});

function flatDomain(stage: StageName): Record<string, string> {
  return Object.fromEntries(Object.entries(domain).map(([k, v]) => [`${stage}.${k}`, v]));
}
