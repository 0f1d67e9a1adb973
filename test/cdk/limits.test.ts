/**
 * The limits of each stage on its template, as the capacity model derives them: the WAF web ACL
 * (both stages by default) with its keyless 401 and per-client rate rules, each answering in the
 * Error shape, reserved concurrency only when the stage reserves (each function's need), what a
 * client gets when a function is throttled, and the methods' throttles; settings an account cannot
 * hold fail the synth.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { Match } from 'aws-cdk-lib/assertions';
import { GATEWAY_RESPONSES } from '../../infra/cdk/constructs/gateway-responses.ts';
import {
  bearerKeyPattern,
  PATH_SPELLINGS,
  EDGE_REQUEST_ID,
  FORBIDDEN_BODY_KEY,
  RATE_LIMITED_BODY_KEY,
  resourcePathPattern,
  UNAUTHORIZED_BODY_KEY,
} from '../../infra/cdk/constructs/web-acl.ts';
import { OPENAPI_DOCUMENT_PATH, PUBLIC_DOCUMENT_METHODS, routes } from '#lib/routes.ts';
import { MAX_BODY_BYTES } from '#lib/http/json-body.ts';
import { deprecationHeaders } from '#lib/http/deprecation.ts';
import { COMMON_RESPONSE_HEADERS } from '#lib/http/response.ts';
import { getPet } from '#lib/operations/get-pet.ts';
import { operations } from '#lib/operations.ts';
import { REFERENCE_PAGE_RESOURCES } from '#lib/openapi/reference-page.ts';
import { AT_THROTTLE_SHARE, CAPACITY_CHOICES, fmt, stageCapacity, WAF_WINDOW_SECONDS } from '../../infra/cdk/capacity.ts';
import { buildApp } from '../../infra/cdk/app.ts';
import { cdkJsonContext, readStageSettings, STAGE_NAMES, type StageName } from '../../infra/cdk/stages.ts';
import { logicalId, resourcesOf, synth } from './synth.ts';

const app = synth();
/** The methods an API Gateway operation of this API can have (HEAD and OPTIONS are the gateway's). */
const OPERATION_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
/** What every answer carries, the web ACL's included. */
const common = Object.entries(COMMON_RESPONSE_HEADERS).map(([Name, Value]) => ({ Name, Value }));
const reserving = synth({ context: { 'staging.reserveConcurrency': 'true', 'production.reserveConcurrency': 'true' } });
/** Production with load-test sources of both address versions declared, and a blocked range. */
const declared = synth({
  context: { 'production.loadTestSources': '198.51.100.7/32, 203.0.113.0/24,2001:db8::/56', 'production.blockedSources': '192.0.2.0/24' },
});
afterAll(() => {
  app.cleanup();
  reserving.cleanup();
  declared.cleanup();
});

describe('the web ACL', () => {
  const production = app.templates.production;
  const settings = readStageSettings('production', () => undefined);
  const limits = stageCapacity(settings).webAcl;

  it('is on in both stages by default', () => {
    for (const stage of STAGE_NAMES) {
      expect(readStageSettings(stage, () => undefined).webAcl).toBe(true);
      app.templates[stage].resourceCountIs('AWS::WAFv2::WebACL', 1);
      app.templates[stage].resourceCountIs('AWS::WAFv2::WebACLAssociation', 1);
    }
  });

  it('is off when a stage turns it off', () => {
    const off = synth({ context: { 'staging.webAcl': 'false' } });
    try {
      off.templates.staging.resourceCountIs('AWS::WAFv2::WebACL', 0);
      off.templates.staging.resourceCountIs('AWS::WAFv2::WebACLAssociation', 0);
    } finally {
      off.cleanup();
    }
  });

  type Rule = {
    Name: string;
    Priority: number;
    Statement: Record<string, Record<string, unknown>>;
    Action: {
      Block: {
        CustomResponse: { ResponseCode: number; CustomResponseBodyKey: string; ResponseHeaders: { Name: string; Value: unknown }[] };
      };
    };
    VisibilityConfig: { MetricName: string; SampledRequestsEnabled: boolean };
  };
  const aclProps = (template = production) => {
    const [acl] = Object.values(resourcesOf(template, 'AWS::WAFv2::WebACL'));
    return acl?.Properties as Record<string, unknown> & {
      Rules: Rule[];
      CustomResponseBodies: Record<string, { ContentType: string; Content: string }>;
    };
  };
  const rule = (name: string): Rule => {
    const found = aclProps().Rules.find((r) => r.Name === name);
    if (!found) throw new Error(`no rule ${name}`);
    return found;
  };

  it('evaluates the keyless 401s first (the deprecated operation apart), then per source IP, per API key and docs per source IP, each with its own metric', () => {
    const props = aclProps();
    expect(props).toMatchObject({ Name: 'PetStore-production', Scope: 'REGIONAL', DefaultAction: { Allow: {} } });
    expect(JSON.stringify(props)).not.toMatch(/Token/);
    expect(props.Rules.map((r) => [r.Priority, r.Name, r.VisibilityConfig.MetricName])).toEqual([
      [0, 'automatic-blocks', 'PetStore-production-automatic-blocks'],
      [1, 'keyless', 'PetStore-production-keyless'],
      [2, 'keyless-getPet', 'PetStore-production-keyless-getPet'],
      [3, 'per-source-ip', 'PetStore-production-per-source-ip'],
      [4, 'per-api-key', 'PetStore-production-per-api-key'],
      [5, 'docs-per-source-ip', 'PetStore-production-docs-per-source-ip'],
      [6, 'body-size', 'PetStore-production-body-size'],
    ]);
    expect(app.stacks.production.api.webAcl?.ruleMetricNames).toEqual(props.Rules.map((r) => r.VisibilityConfig.MetricName));
    // Metrics, but no sampled requests: a sample would keep the Authorization header.
    expect(JSON.stringify(props)).not.toContain('"SampledRequestsEnabled":true');
  });

  it('limits each source IP over a one-minute window, and each API key however its Authorization value is spelt', () => {
    expect(rule('per-source-ip').Statement.RateBasedStatement).toEqual({
      AggregateKeyType: 'IP',
      Limit: limits.perIpPerMinute,
      EvaluationWindowSec: 60,
    });
    expect(rule('per-api-key').Statement.RateBasedStatement).toEqual({
      AggregateKeyType: 'CUSTOM_KEYS',
      CustomKeys: [
        {
          Header: {
            Name: 'authorization',
            TextTransformations: [
              { Priority: 0, Type: 'COMPRESS_WHITE_SPACE' },
              { Priority: 1, Type: 'LOWERCASE' },
            ],
          },
        },
      ],
      Limit: limits.perKeyPerMinute,
      EvaluationWindowSec: 60,
    });
  });

  it('exempts declared load-test sources, an IP set per address version, from the per-address and per-key rules only; none by default', () => {
    // The automatic blocks' set only (test/cdk/edge-blocks.test.ts).
    for (const stage of STAGE_NAMES) app.templates[stage].resourceCountIs('AWS::WAFv2::IPSet', 1);
    const template = declared.templates.production;
    const sets = Object.entries(resourcesOf(template, 'AWS::WAFv2::IPSet'));
    const reference = (name: string) => sets.filter(([, s]) => String(s.Properties?.Name).includes(name));
    expect(reference('load-test-sources').map(([, s]) => s.Properties)).toEqual([
      expect.objectContaining({ Scope: 'REGIONAL', IPAddressVersion: 'IPV4', Addresses: ['198.51.100.7/32', '203.0.113.0/24'] }),
      expect.objectContaining({ Scope: 'REGIONAL', IPAddressVersion: 'IPV6', Addresses: ['2001:db8::/56'] }),
    ]);
    const refs = (name: string) => reference(name).map(([id]) => ({ IPSetReferenceStatement: { Arn: { 'Fn::GetAtt': [id, 'Arn'] } } }));
    const exempt = { NotStatement: { Statement: { OrStatement: { Statements: refs('load-test-sources') } } } };
    const rules = aclProps(template).Rules;
    for (const r of rules.filter((r) => r.Name !== 'blocked-sources' && r.Name !== 'automatic-blocks')) {
      const scopeDown = r.Statement.RateBasedStatement?.ScopeDownStatement;
      // Only the two per-client rules; the keyless rules, the docs rule and the gateway's throttles stay.
      if (r.Name === 'per-source-ip' || r.Name === 'per-api-key') expect(scopeDown).toEqual(exempt);
      else expect(JSON.stringify(r)).not.toContain('IPSetReferenceStatement');
    }
    // The rest of the web ACL is as without the declaration.
    expect(rules.slice(1).map((r) => r.Name)).toEqual(aclProps().Rules.map((r) => r.Name));
  });

  it('answers every request from a blocked source with 403, in a first rule; none by default', () => {
    expect(aclProps().Rules.map((r) => r.Name)).not.toContain('blocked-sources');
    const template = declared.templates.production;
    const [first] = aclProps(template).Rules;
    const [id] =
      Object.entries(resourcesOf(template, 'AWS::WAFv2::IPSet')).find(([, s]) => String(s.Properties?.Name).includes('blocked')) ?? [];
    expect(first).toMatchObject({
      Name: 'blocked-sources',
      Priority: 0,
      Statement: { IPSetReferenceStatement: { Arn: { 'Fn::GetAtt': [id, 'Arn'] } } },
      Action: { Block: { CustomResponse: { ResponseCode: 403, CustomResponseBodyKey: FORBIDDEN_BODY_KEY } } },
    });
    expect(resourcesOf(template, 'AWS::WAFv2::IPSet')[id ?? '']?.Properties).toMatchObject({
      IPAddressVersion: 'IPV4',
      Addresses: ['192.0.2.0/24'],
    });
  });

  it("alarms when a route function runs at 80 % of its methods' rate for 3 of 5 minutes: their buckets are empty", () => {
    const { rateLimit } = stageCapacity(settings).apiThrottle;
    for (const route of routes) {
      production.hasResourceProperties('AWS::CloudWatch::Alarm', {
        AlarmName: `PetStore-production-${route.functionId}-at-throttle`,
        MetricName: 'Invocations',
        Namespace: 'AWS/Lambda',
        Statistic: 'Sum',
        Period: 60,
        Threshold: Math.ceil(AT_THROTTLE_SHARE * 60 * rateLimit),
        ComparisonOperator: 'GreaterThanOrEqualToThreshold',
        EvaluationPeriods: 5,
        DatapointsToAlarm: 3,
      });
    }
  });

  /** The path regex and the transformations of each statement on the URI path in `statement`. */
  const pathMatches = (statement: unknown) =>
    [
      ...JSON.stringify(statement).matchAll(
        /"FieldToMatch":\{"UriPath":\{\}\},"RegexString":("[^"]*"),"TextTransformations":(\[[^\]]*\])/g,
      ),
    ].map((m) => [JSON.parse(m[1] as string), (JSON.parse(m[2] as string) as { Type: string }[]).map((t) => t.Type)]);
  /** Each pattern in every spelling WAF is to match: as sent, normalised, decoded and normalised. */
  const inEverySpelling = (patterns: string[]) => patterns.flatMap((p) => PATH_SPELLINGS.map((types) => [p, [...types]]));

  it('limits each source IP on the docs routes and the OpenAPI document alone, under both base paths, in every spelling', () => {
    const docs = rule('docs-per-source-ip').Statement.RateBasedStatement as Record<string, unknown>;
    expect(docs).toMatchObject({ AggregateKeyType: 'IP', EvaluationWindowSec: 60, Limit: expect.any(Number) });
    expect(pathMatches(docs.ScopeDownStatement)).toEqual(
      inEverySpelling([resourcePathPattern([...REFERENCE_PAGE_RESOURCES, OPENAPI_DOCUMENT_PATH], 'production')]),
    );
    expect(PATH_SPELLINGS).toEqual([['NONE'], ['NORMALIZE_PATH'], ['URL_DECODE', 'NORMALIZE_PATH']]);
  });

  it('answers a pet operation without a well-formed bearer key with the 401 Error body, by the route table and the key format', () => {
    const keyless = rule('keyless');
    expect(keyless.Statement.AndStatement?.Statements).toEqual(
      expect.arrayContaining([
        {
          NotStatement: {
            Statement: {
              RegexMatchStatement: {
                FieldToMatch: { SingleHeader: { Name: 'authorization' } },
                RegexString: bearerKeyPattern(),
                TextTransformations: [{ Priority: 0, Type: 'NONE' }],
              },
            },
          },
        },
      ]),
    );
    expect(bearerKeyPattern()).toBe('^[Bb][Ee][Aa][Rr][Ee][Rr] +psk_[A-Za-z0-9_-]{32}$');
    // Every operation of the route table: its method, then its resources in every spelling; a
    // deprecated one in a rule of its own.
    for (const name of ['keyless', 'keyless-getPet']) {
      const ops = operations.filter((o) => (name === 'keyless' ? !o.deprecation : o.operationId === 'getPet'));
      const text = JSON.stringify(rule(name).Statement);
      const methods = [...new Set(ops.map((o) => o.method))];
      for (const method of methods) {
        expect(text).toContain(
          JSON.stringify({ FieldToMatch: { Method: {} }, PositionalConstraint: 'EXACTLY', SearchString: method }).slice(1, -1),
        );
      }
      const patterns = methods.map((m) =>
        resourcePathPattern(
          ops.filter((o) => o.method === m).map((o) => o.resource),
          'production',
        ),
      );
      expect(pathMatches(rule(name).Statement)).toEqual(inEverySpelling(patterns));
    }
    // No statement reads the Host header, which WAF may not see.
    expect(JSON.stringify(aclProps().Rules).toLowerCase()).not.toContain('"host"');
    expect(keyless.Action.Block.CustomResponse).toEqual({
      ResponseCode: 401,
      CustomResponseBodyKey: UNAUTHORIZED_BODY_KEY,
      ResponseHeaders: [...common, { Name: 'WWW-Authenticate', Value: 'Bearer realm="petstore"' }],
    });
    const body = aclProps().CustomResponseBodies[UNAUTHORIZED_BODY_KEY];
    expect(body?.ContentType).toBe('APPLICATION_JSON');
    expect(JSON.parse(body?.Content ?? '')).toEqual({
      code: 'unauthorized',
      message: expect.stringContaining('Authorization: Bearer <API_KEY>'),
      status: 401,
    });
  });

  it("answers the deprecated operation's keyless 401 with the function's Deprecation, Sunset and successor Link, the stage's base address filled in", () => {
    const { ResponseCode, CustomResponseBodyKey, ResponseHeaders } = rule('keyless-getPet').Action.Block.CustomResponse;
    expect([ResponseCode, CustomResponseBodyKey]).toEqual([401, UNAUTHORIZED_BODY_KEY]);
    const baseUrl = (production.toJSON() as { Outputs: Record<string, { Value: unknown }> }).Outputs.BaseUrl?.Value;
    const { Link, ...fixed } = deprecationHeaders(getPet.deprecation, `\${BaseUrl}${getPet.deprecation.successor}`);
    expect(ResponseHeaders).toEqual([
      ...common,
      { Name: 'WWW-Authenticate', Value: 'Bearer realm="petstore"' },
      ...Object.entries(fixed).map(([Name, Value]) => ({ Name, Value })),
      { Name: 'Link', Value: { 'Fn::Sub': [Link, { BaseUrl: baseUrl }] } },
    ]);
    expect(Link).toBe(`<\${BaseUrl}/pets>; rel="successor-version"`);
    // WAF takes any header name but content-type, without a prefix, and values of up to 255 characters.
    for (const { Name, Value } of ResponseHeaders) {
      expect(Name).not.toMatch(/^content-type$/i);
      if (typeof Value === 'string') expect(Value.length).toBeLessThanOrEqual(255);
    }
  });

  it('matches resource paths as the gateway may route them: repeated and trailing slashes, one part per parameter, either base path, absolute-form', () => {
    const pets = new RegExp(resourcePathPattern(['/pets', '/pets/{petId}'], 'staging'));
    for (const path of [
      '/v1/pets',
      '/v1/pets/',
      '//v1//pets',
      '/v1/pets/42',
      '/v1/pets/42/',
      '/staging/v1/pets/7',
      '/../v1/pets',
      'https://api.example.com/v1/pets/7',
      'http:/abc.execute-api.eu-west-1.amazonaws.com/staging/v1/pets',
    ]) {
      expect(path).toMatch(pets);
    }
    for (const path of [
      '/v1/pets/42/toys',
      '/v1/petsx',
      '/v2/pets',
      '/v1',
      '/production/v1/pets',
      '/staging/staging/v1/pets',
      '/x/v1/pets',
    ]) {
      expect(path).not.toMatch(pets);
    }
  });

  it("stays far below the web ACL's 1,500 WCUs, by AWS's cost of each statement, however many operations", () => {
    // Regex match 3, string match EXACTLY 2, each text transformation 10 (NONE counted too, to be
    // safe), a rate-based rule 2 plus 30 per custom key plus its scope-down; logical statements add
    // their statements' (https://docs.aws.amazon.com/waf/latest/developerguide/aws-waf-capacity-units.html);
    // an IP set reference 1 (https://docs.aws.amazon.com/waf/latest/developerguide/waf-rule-statement-type-ipset-match.html).
    const transformations = (s: Record<string, unknown>) => 10 * ((s.TextTransformations as unknown[] | undefined)?.length ?? 0);
    const wcu = (statement: Record<string, Record<string, unknown>>): number => {
      const [[type, s]] = Object.entries(statement) as [[string, Record<string, unknown>]];
      const nested = (list: unknown) => (list as Record<string, Record<string, unknown>>[]).reduce((sum, n) => sum + wcu(n), 0);
      if (type === 'AndStatement' || type === 'OrStatement') return nested(s.Statements);
      if (type === 'NotStatement') return nested([s.Statement]);
      if (type === 'RegexMatchStatement') return 3 + transformations(s);
      if (type === 'IPSetReferenceStatement') return 1;
      // A size constraint 1, and its transformations (https://docs.aws.amazon.com/waf/latest/developerguide/waf-rule-statement-type-size-constraint-match.html).
      if (type === 'SizeConstraintStatement') return 1 + transformations(s);
      if (type === 'ByteMatchStatement' && s.PositionalConstraint === 'EXACTLY') return 2 + transformations(s);
      if (type === 'RateBasedStatement') {
        const keys = (s.CustomKeys ?? []) as { Header: Record<string, unknown> }[];
        return (
          2 + keys.reduce((sum, k) => sum + 30 + transformations(k.Header), 0) + (s.ScopeDownStatement ? nested([s.ScopeDownStatement]) : 0)
        );
      }
      throw new Error(`no WCU rule for ${type}`);
    };
    // With every optional part on: load-test sources of both address versions declared, a blocked range.
    const rules = aclProps(declared.templates.production).Rules;
    const total = rules.reduce((sum, r) => sum + wcu(r.Statement), 0);
    // An operation adds only a regex alternative, unless its HTTP method is new to the keyless rule: then one
    // method's match on the path in each spelling. So the bound is every method an operation can have.
    const keyless = rules.find((r) => r.Name === 'keyless')?.Statement as Record<string, Record<string, unknown>>;
    const methods = new Set(operations.filter((o) => !o.deprecation).map((o) => o.method));
    const perMethod = Math.ceil(wcu(keyless) / methods.size);
    const bound = total + perMethod * (OPERATION_METHODS.length - methods.size);
    console.log(`web ACL capacity, every optional rule on: ${total} WCUs; ${perMethod} a new method; at most ${bound}`);
    expect(bound).toBeLessThan(1_500 / 2);
  });

  it("answers every body over the service's limit with 413 at the edge, whatever its size, WAF seeing 64 KB of it", () => {
    expect(rule('body-size')).toMatchObject({
      Statement: {
        SizeConstraintStatement: {
          FieldToMatch: { Body: { OversizeHandling: 'MATCH' } },
          ComparisonOperator: 'GT',
          Size: MAX_BODY_BYTES,
          TextTransformations: [{ Priority: 0, Type: 'NONE' }],
        },
      },
      Action: {
        Block: {
          CustomResponse: {
            ResponseCode: 413,
            CustomResponseBodyKey: 'payload_too_large',
            ResponseHeaders: expect.arrayContaining([{ Name: 'X-Request-Id', Value: EDGE_REQUEST_ID }]),
          },
        },
      },
    });
    // WAF sees 64 KB (65,536 bytes) of a body: a larger one is oversize, and MATCH counts it.
    expect(aclProps().AssociationConfig).toEqual({ RequestBody: { API_GATEWAY: { DefaultSizeInspectionLimit: 'KB_64' } } });
    expect(MAX_BODY_BYTES).toBe(64 * 1024);
  });

  it('logs what it blocks to an aws-waf-logs- group, the Authorization header redacted', () => {
    const [config] = Object.values(resourcesOf(production, 'AWS::WAFv2::LoggingConfiguration'));
    const [groupId, group] = Object.entries(resourcesOf(production, 'AWS::Logs::LogGroup')).find(([, g]) =>
      String(g.Properties?.LogGroupName).startsWith('aws-waf-logs-'),
    ) ?? [''];
    expect(group?.Properties).toMatchObject({
      LogGroupName: 'aws-waf-logs-PetStore-production',
      RetentionInDays: settings.logRetentionDays,
    });
    expect(config?.Properties).toMatchObject({
      ResourceArn: { 'Fn::GetAtt': [expect.any(String), 'Arn'] },
      RedactedFields: [{ SingleHeader: { Name: 'authorization' } }],
      LoggingFilter: {
        DefaultBehavior: 'DROP',
        Filters: [{ Behavior: 'KEEP', Requirement: 'MEETS_ANY', Conditions: [{ ActionCondition: { Action: 'BLOCK' } }] }],
      },
    });
    // The group's ARN without the `:*` of its Arn attribute.
    const destination = JSON.stringify(config?.Properties?.LogDestinationConfigs);
    expect(destination).toContain(':log-group:');
    expect(destination).toContain(groupId);
    expect(destination).not.toContain(':*');
  });

  it('blocks over a rate rule with a 429 in the Error shape, JSON, naming its limit, with Retry-After of one window and the limits', () => {
    const { perKeyPerMinute, perIpPerMinute } = stageCapacity(settings).webAcl;
    const bodies = aclProps().CustomResponseBodies;
    for (const rate of aclProps().Rules.filter((r) => 'RateBasedStatement' in r.Statement)) {
      const key = rate.Action?.Block?.CustomResponse?.CustomResponseBodyKey ?? '';
      expect(key.startsWith(RATE_LIMITED_BODY_KEY), rate.Name).toBe(true);
      expect(bodies[key]?.ContentType).toBe('APPLICATION_JSON');
      expect(JSON.parse(bodies[key]?.Content ?? '')).toEqual({
        code: 'too_many_requests',
        message: expect.stringMatching(/limit/),
        status: 429,
      });
      expect(rate.Action).toEqual({
        Block: {
          CustomResponse: {
            ResponseCode: 429,
            CustomResponseBodyKey: key,
            ResponseHeaders: expect.arrayContaining([
              { Name: 'Retry-After', Value: String(WAF_WINDOW_SECONDS) },
              { Name: 'Cache-Control', Value: 'no-store' },
              { Name: 'RateLimit-Policy', Value: `"per-key";q=${perKeyPerMinute};w=60, "per-address";q=${perIpPerMinute};w=60` },
              { Name: 'X-RateLimit-Limit', Value: String(perKeyPerMinute) },
            ]),
          },
        },
      });
    }
  });

  it('is associated with the stage', () => {
    const [stageId] = Object.keys(resourcesOf(production, 'AWS::ApiGateway::Stage'));
    const [aclId] = Object.keys(resourcesOf(production, 'AWS::WAFv2::WebACL'));
    const associations = Object.values(resourcesOf(production, 'AWS::WAFv2::WebACLAssociation'));
    expect(associations).toHaveLength(1);
    expect(associations[0]?.Properties?.WebACLArn).toEqual({ 'Fn::GetAtt': [aclId, 'Arn'] });
    // arn:…:apigateway:<region>::/restapis/<api>/stages/<stage>
    expect(JSON.stringify(associations[0]?.Properties?.ResourceArn)).toMatch(
      new RegExp(`/restapis/",\\{"Ref":"\\w+"\\},"/stages/",\\{"Ref":"${stageId}"\\}`),
    );
  });

  it("takes its limits from the model: each stage's per-key, per-address and docs per-address limits", () => {
    for (const stage of STAGE_NAMES) {
      const [acl] = Object.values(resourcesOf(app.templates[stage], 'AWS::WAFv2::WebACL'));
      const rules = (acl?.Properties?.Rules ?? []) as { Name: string; Statement: { RateBasedStatement?: { Limit: number } } }[];
      const limit = (name: string) => rules.find((r) => r.Name === name)?.Statement.RateBasedStatement?.Limit;
      const derived = stageCapacity(readStageSettings(stage, () => undefined)).webAcl;
      expect(limit('per-source-ip')).toBe(derived.perIpPerMinute);
      expect(limit('per-api-key')).toBe(derived.perKeyPerMinute);
      expect(limit('docs-per-source-ip')).toBe(derived.docsPerIpPerMinute);
      expect(JSON.stringify(acl?.Properties)).toContain(JSON.stringify(resourcePathPattern(['/pets/{petId}'], stage)));
    }
  });
});

describe.each(STAGE_NAMES)('%s function limits', (stage) => {
  const template = app.templates[stage];
  const settings = readStageSettings(stage, () => undefined);

  it('reserves no concurrency by default: a first deploy must succeed on an account with a reduced quota', () => {
    const functions = resourcesOf(template, 'AWS::Lambda::Function');
    expect(Object.keys(functions).length).toBeGreaterThan(1);
    for (const [id, fn] of Object.entries(functions)) expect(fn.Properties?.ReservedConcurrentExecutions, id).toBeUndefined();
  });

  it("with reserveConcurrency, reserves each function its methods' need: the burst is served", () => {
    const stack = reserving.stacks[stage];
    const capacity = stageCapacity({ ...settings, reserveConcurrency: true });
    // The pre-traffic hooks (production) run once per deploy, from the unreserved pool.
    const functions = Object.fromEntries(
      Object.entries(resourcesOf(reserving.templates[stage], 'AWS::Lambda::Function')).filter(
        ([, fn]) => !String(fn.Properties?.FunctionName).endsWith('-pre-traffic'),
      ),
    );
    const byId = Object.fromEntries(
      [...Object.entries(stack.functions), ['docs', stack.referenceFunction] as const].map(([name, fn]) => [logicalId(fn), name]),
    );
    // The automatic blocks' function reserves nothing: it is not on a request's path.
    delete functions[logicalId(stack.api.edgeBlocks?.function)];
    expect(Object.keys(functions).sort()).toEqual(Object.keys(byId).sort());
    for (const [id, fn] of Object.entries(functions)) {
      const need = capacity.functions.find((f) => f.functionId === byId[id])?.concurrencyNeed;
      expect(fn.Properties?.ReservedConcurrentExecutions, id).toBe(need);
    }
    // One method's function: that method's burst, plus its rate for one duration budget.
    const { rateLimit, burstLimit } = capacity.apiThrottle;
    const createPet = capacity.functions.find((f) => f.functionId === 'create-pet')?.reservedConcurrency ?? 0;
    expect(createPet).toBe(burstLimit + Math.ceil((rateLimit * settings.functionDurationMs) / 1000));
  });

  it('answers a throttled function (INTEGRATION_FAILURE) with 503 service_unavailable and Retry-After', () => {
    template.hasResourceProperties('AWS::ApiGateway::GatewayResponse', {
      ResponseType: 'INTEGRATION_FAILURE',
      StatusCode: '503',
      ResponseParameters: Match.objectLike({ 'gatewayresponse.header.Retry-After': "'1'" }),
      ResponseTemplates: { 'application/json': Match.serializedJson(Match.objectLike({ code: 'service_unavailable', status: 503 })) },
    });
    expect(GATEWAY_RESPONSES.INTEGRATION_FAILURE.headers['Retry-After']).toBe('1');
  });

  it('throttles the docs routes by their own, lower method setting', () => {
    const [stageResource] = Object.values(resourcesOf(template, 'AWS::ApiGateway::Stage'));
    const methodSettings = stageResource?.Properties?.MethodSettings as Record<string, unknown>[];
    const docs = { ThrottlingRateLimit: settings.docsThrottlingRateLimit, ThrottlingBurstLimit: settings.docsThrottlingBurstLimit };
    expect(methodSettings).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ ResourcePath: '/~1v1~1docs', HttpMethod: 'ANY', LoggingLevel: 'ERROR', ...docs }),
        expect.objectContaining({ ResourcePath: '/~1v1~1docs~1{asset}', HttpMethod: 'ANY', LoggingLevel: 'ERROR', ...docs }),
      ]),
    );
    expect(settings.docsThrottlingRateLimit).toBeLessThan(stageCapacity(settings).apiThrottle.rateLimit);
    // The OpenAPI document, 30 KB without a key, shares their throttle (a bucket per method).
    expect(methodSettings).toEqual(
      expect.arrayContaining(
        PUBLIC_DOCUMENT_METHODS.map((HttpMethod) => expect.objectContaining({ ResourcePath: '/~1v1~1openapi.json', HttpMethod, ...docs })),
      ),
    );
  });

  it("throttles every other method by the stage default, each API method's rate and burst, which API Gateway applies to each method on its own", () => {
    const [stageResource] = Object.values(resourcesOf(template, 'AWS::ApiGateway::Stage'));
    const methodSettings = stageResource?.Properties?.MethodSettings as Record<string, unknown>[];
    expect(methodSettings).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          ResourcePath: '/*',
          HttpMethod: '*',
          ThrottlingRateLimit: stageCapacity(settings).apiThrottle.rateLimit,
          ThrottlingBurstLimit: stageCapacity(settings).apiThrottle.burstLimit,
        }),
      ]),
    );
  });
});

describe('settings an account cannot hold', () => {
  const needOf = (stage: StageName, context: Record<string, string> = {}) =>
    stageCapacity(readStageSettings(stage, (key) => context[key])).concurrencyNeed;
  const build = (context: Record<string, unknown>) => () =>
    buildApp({ outdir: reserving.outdir, context: { ...cdkJsonContext(), 'aws:cdk:bundling-stacks': [], ...context } });

  it('fail the synth when the stages together admit more than the account runs, naming the numbers and the choices', () => {
    const [a, b] = [needOf('staging'), needOf('production', { 'production.methodRateLimit': '600' })];
    expect(build({ 'production.methodRateLimit': '600' })).toThrow(
      `stages "staging" and "production" share an account: their ${routes.length} API methods and docs routes admit ${fmt(a)} + ${fmt(b)} = ${fmt(a + b)} ` +
        'concurrent executions (B + ⌈r × functionDurationMs⌉ per method: B = ⌊methodRateLimit × burstSeconds⌋ and r = methodRateLimit on each API method, ' +
        "the docs throttle on each docs route; API Gateway's throttles are best-effort targets, not exact ceilings), " +
        `above accountConcurrency ${fmt(readStageSettings('staging', () => undefined).accountConcurrency)}. ${CAPACITY_CHOICES}`,
    );
  });

  it('fail the synth when reservations would leave Lambda less than its 100 unreserved', () => {
    const [a, b] = [needOf('staging'), needOf('production')];
    const accountConcurrency = a + b + 99;
    expect(
      build({
        'staging.reserveConcurrency': 'true',
        'production.reserveConcurrency': 'true',
        'staging.accountConcurrency': String(accountConcurrency),
      }),
    ).toThrow(
      `their functions reserve ${fmt(a)} + ${fmt(b)} = ${fmt(a + b)} concurrent executions (reserveConcurrency in "staging" and "production": ` +
        `each function's need), above accountConcurrency ${fmt(accountConcurrency)} minus the 100 Lambda keeps unreserved (${fmt(accountConcurrency - 100)})`,
    );
  });

  it("fail the synth, naming perKeyPerMinute, when one key could take more than a method admits in WAF's minute", () => {
    expect(build({ 'staging.methodRateLimit': '5' })).toThrow(
      `stage "staging" setting "perKeyPerMinute" must be from 10 (WAF's floor) to 310 (what one API method admits in WAF's minute, B + 60 × r), got 400.`,
    );
    expect(build({ 'staging.methodRateLimit': '5', 'staging.perKeyPerMinute': '310', 'staging.perSourcePerMinute': '310' })).not.toThrow();
  });
});
