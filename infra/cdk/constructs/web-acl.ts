/**
 * The stage's AWS WAF web ACL, in front of API Gateway: what one client may cost everyone else. In
 * priority order (the first rule that blocks ends the evaluation):
 *
 * 1. `keyless`: a request to a pet operation (a method and resource of the route table) whose
 *    Authorization is not a well-formed bearer key gets the service's 401 from WAF, before it takes
 *    a token from the method's bucket or invokes a function. Other paths and methods pass, so the
 *    gateway still answers 404 and 405 first, and the docs, the OpenAPI document and CORS
 *    preflights are untouched. A deprecated operation has a rule of its own,
 *    `keyless-<operationId>`, whose 401 carries the operation's deprecation headers.
 * 2. `per-source-ip`: requests per address, whatever they are.
 * 3. `per-api-key`: requests per key, counted on the Authorization value normalised by the same
 *    text transformations for every spelling the service accepts (lib/http/bearer-auth.ts): the
 *    scheme in any case, one or more spaces.
 * 4. `docs-per-source-ip`: requests per address to the docs routes, whose method throttle is one
 *    bucket all clients share.
 *
 * Addresses a stage declares as a load test's sources (`loadTestSources`) are exempt from rules 2
 * and 3 only: their scope-down statement skips the stage's IP sets (docs/operators.md).
 *
 * The rate rules answer 429 in the service's Error shape with `Retry-After`. WAF's custom response
 * takes precedence over the gateway's WAF_FILTERED response, so that one never answers these.
 */
import { isIP } from 'node:net';
import { Fn, Stack, Token } from 'aws-cdk-lib';
import type { CfnStage, Stage } from 'aws-cdk-lib/aws-apigateway';
import { CfnIPSet, CfnWebACL, CfnWebACLAssociation } from 'aws-cdk-lib/aws-wafv2';
import { Construct } from 'constructs';
import { API_KEY_PATTERN } from '#lib/auth/api-keys.ts';
import { BEARER_CHALLENGE, BEARER_SCHEME } from '#lib/http/bearer-auth.ts';
import { deprecationHeaders } from '#lib/http/deprecation.ts';
import { COMMON_RESPONSE_HEADERS } from '#lib/http/response.ts';
import { REFERENCE_PAGE_RESOURCES } from '#lib/openapi/reference-page.ts';
import { type ApiOperation, operations } from '#lib/operations.ts';
import { API_BASE_PATH } from '#lib/routes.ts';
import { WAF_WINDOW_SECONDS } from '../capacity.ts';
import { errorBody } from './gateway-responses.ts';

/** Keys of the custom response bodies the rules' Block actions send. */
export const RATE_LIMITED_BODY_KEY = 'too_many_requests';
export const UNAUTHORIZED_BODY_KEY = 'unauthorized';

export const RATE_LIMITED_MESSAGE = 'Too many requests from this client. Slow down and retry after the Retry-After delay.';
export const EDGE_UNAUTHORIZED_MESSAGE = `Missing or malformed API key: send it as "Authorization: ${BEARER_SCHEME} <API_KEY>", the scheme and the key separated by spaces only.`;

const current = operations.filter((o) => !o.deprecation);
const deprecated = operations.flatMap((o) => (o.deprecation ? [{ ...o, deprecation: o.deprecation }] : []));

/** The rules by name, in priority order. */
export const WEB_ACL_RULES = [
  'keyless',
  ...deprecated.map((o) => `keyless-${o.operationId}`),
  'per-source-ip',
  'per-api-key',
  'docs-per-source-ip',
];

export interface WebAclProps {
  readonly stage: Stage;
  /** The stage's base address (`https://…/v1`), which a deprecated operation's successor `Link` names. */
  readonly baseUrl: string;
  /** Requests per minute one API key may make, however its Authorization value is spelt. */
  readonly perKeyPerMinute: number;
  /** Requests per minute one source IP may make. */
  readonly perIpPerMinute: number;
  /** Requests per minute one source IP may make to the docs routes. */
  readonly docsPerIpPerMinute: number;
  /** CIDR blocks exempt from the per-address and per-key rules (a declared load test's sources). */
  readonly loadTestSources: readonly string[];
}

type Statement = CfnWebACL.StatementProperty;

const NO_TRANSFORMATION: CfnWebACL.TextTransformationProperty[] = [{ priority: 0, type: 'NONE' }];

/**
 * How the per-key rule normalises the Authorization value before counting: runs of spaces become
 * one (`Bearer  K` is `Bearer K`), then the scheme's case stops mattering (`bearer K`, `BEARER K`).
 * LOWERCASE folds the key too: two keys that differ only in case would share a budget, which
 * random 192-bit keys never do by chance, and nobody can aim at a key they do not know.
 */
export const API_KEY_TRANSFORMATIONS: CfnWebACL.TextTransformationProperty[] = [
  { priority: 0, type: 'COMPRESS_WHITE_SPACE' },
  { priority: 1, type: 'LOWERCASE' },
];

/**
 * A well-formed bearer key, as the service parses it: the scheme in any case, one or more spaces,
 * the key's own format. Spelt without a case-insensitive flag, which WAF's regex dialect may not
 * take inline: `[Bb][Ee]…`.
 */
export function bearerKeyPattern(): string {
  const key = API_KEY_PATTERN.source.replace(/^\^/, '').replace(/\$$/, '');
  const scheme = [...BEARER_SCHEME].map((c) => `[${c.toUpperCase()}${c.toLowerCase()}]`).join('');
  return `^${scheme} +${key}$`;
}

/**
 * A request path to one of `resources` (route table paths with `{param}` placeholders) under the
 * base path, as API Gateway routes it: path parts separated by one or more slashes, a trailing
 * slash ignored, a `{param}` one non-empty part; `/<stage>` in front (the execute-api address) or
 * not (a custom domain), the URI's scheme and host in front (an absolute-form target), and leading
 * `..` parts (which NORMALIZE_PATH keeps) allowed. No Host header decides which address it is:
 * WAF may not see that header (docs/scaling.md, "The edge").
 */
export function resourcePathPattern(resources: readonly string[], stageName: string): string {
  const part = (p: string) => (/^\{[^}+]+\}$/.test(p) ? '[^/]+' : p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  const pattern = (path: string) =>
    path
      .split('/')
      .filter((p) => p !== '')
      .map(part)
      .join('/+');
  const alternatives = resources.map(pattern);
  const tail = alternatives.length === 1 ? alternatives[0] : `(?:${alternatives.join('|')})`;
  return `^(?:[A-Za-z][A-Za-z0-9+.-]*:/+[^/]*)?(?:/+\\.\\.)*/+(?:${part(stageName)}/+)?${pattern(API_BASE_PATH)}/+${tail}/*$`;
}

/**
 * The spellings of a path the edge matches, each a list of WAF text transformations applied to the
 * URI path: as sent; with repeated slashes and `.`/`..` parts removed; percent-decoded, then so.
 * Which of these API Gateway routes is not documented, so a pet operation is matched in each.
 */
export const PATH_SPELLINGS = [['NONE'], ['NORMALIZE_PATH'], ['URL_DECODE', 'NORMALIZE_PATH']] as const;

function allOf(statements: Statement[]): Statement {
  return statements.length === 1 ? (statements[0] as Statement) : { andStatement: { statements } };
}

function anyOf(statements: Statement[]): Statement {
  return statements.length === 1 ? (statements[0] as Statement) : { orStatement: { statements } };
}

function regex(fieldToMatch: CfnWebACL.FieldToMatchProperty, regexString: string, textTransformations = NO_TRANSFORMATION): Statement {
  return { regexMatchStatement: { fieldToMatch, regexString, textTransformations } };
}

/** A request to one of `resources` under the base path, in any of its spellings. */
function underBase(resources: readonly string[], stageName: string): Statement {
  const pattern = resourcePathPattern(resources, stageName);
  const transformations = (types: readonly string[]) => types.map((type, priority) => ({ priority, type }));
  // FieldToMatch's members are untyped in the L1 construct: they are written as CloudFormation spells them.
  return anyOf(PATH_SPELLINGS.map((types) => regex({ uriPath: {} }, pattern, transformations(types))));
}

/** A request to one of `ops`: its method on its resource. */
function petOperation(ops: readonly ApiOperation[], stageName: string): Statement {
  const methods = [...new Set(ops.map((route) => route.method))];
  return anyOf(
    methods.map((method) =>
      allOf([
        {
          byteMatchStatement: {
            fieldToMatch: { method: {} },
            positionalConstraint: 'EXACTLY',
            searchString: method,
            textTransformations: NO_TRANSFORMATION,
          },
        },
        underBase(
          ops.filter((route) => route.method === method).map((route) => route.resource),
          stageName,
        ),
      ]),
    ),
  );
}

export class WebAcl extends Construct {
  readonly webAcl: CfnWebACL;
  /** The metric names WAF reports under (the `WebACL` and `Rule` dimensions): what the dashboard watches. */
  readonly metricName: string;
  /** Each rule's metric name (the `Rule` dimension), in priority order (WEB_ACL_RULES). */
  readonly ruleMetricNames: readonly string[];

  constructor(scope: Construct, id: string, props: WebAclProps) {
    super(scope, id);
    // The stack's name (one stack per stage); the metric names start with it.
    const name = Stack.of(this).stackName;
    // The name as written: `Stage.stageName` is a reference, and a regex needs the text.
    const stageName = (props.stage.node.defaultChild as CfnStage).stageName;
    if (!stageName || Token.isUnresolved(stageName)) throw new Error('WebAcl needs a stage whose name is known at synth');
    this.metricName = name;
    this.ruleMetricNames = WEB_ACL_RULES.map((rule) => `${name}-${rule}`);
    // Metrics per rule, without sampled requests: a sample would keep the Authorization header.
    const visibility = (metricName: string): CfnWebACL.VisibilityConfigProperty => ({
      cloudWatchMetricsEnabled: true,
      metricName,
      sampledRequestsEnabled: false,
    });
    const block = (responseCode: number, customResponseBodyKey: string, extra: Record<string, string>): CfnWebACL.RuleActionProperty => {
      const responseHeaders = Object.entries({ ...COMMON_RESPONSE_HEADERS, ...extra }).map(([name, value]) => ({ name, value }));
      return { block: { customResponse: { responseCode, customResponseBodyKey, responseHeaders } } };
    };
    // A client that waits one window finds its count below the limit again.
    const rateLimited = block(429, RATE_LIMITED_BODY_KEY, { 'Retry-After': String(WAF_WINDOW_SECONDS) });
    const rateBased = (limit: number, key: Partial<CfnWebACL.RateBasedStatementProperty>): Statement => ({
      rateBasedStatement: { limit, evaluationWindowSec: WAF_WINDOW_SECONDS, aggregateKeyType: 'IP', ...key },
    });
    const malformedKey: Statement = { notStatement: { statement: regex({ singleHeader: { Name: 'authorization' } }, bearerKeyPattern()) } };
    const keyless = (ops: readonly ApiOperation[], extra: Record<string, string>) => ({
      statement: allOf([malformedKey, petOperation(ops, stageName)]),
      action: block(401, UNAUTHORIZED_BODY_KEY, { 'WWW-Authenticate': BEARER_CHALLENGE, ...extra }),
    });
    // The function's deprecation headers, the successor at the stage's base address (CloudFormation's Fn::Sub).
    const deprecatedHeaders = (d: (typeof deprecated)[number]['deprecation']) => {
      const { Link, ...fixed } = deprecationHeaders(d, `\${BaseUrl}${d.successor}`);
      return { ...fixed, Link: Fn.sub(Link, { BaseUrl: props.baseUrl }) };
    };
    // One IP set per address version a declared source uses; the per-client rules count only requests from outside them.
    const ipSets = (['IPV4', 'IPV6'] as const).flatMap((ipAddressVersion) => {
      const addresses = props.loadTestSources.filter((cidr) => isIP(cidr.split('/')[0] ?? '') === (ipAddressVersion === 'IPV4' ? 4 : 6));
      if (addresses.length === 0) return [];
      const set = new CfnIPSet(this, `LoadTestSources${ipAddressVersion}`, {
        name: `${name}-load-test-sources-${ipAddressVersion.toLowerCase()}`,
        scope: 'REGIONAL',
        ipAddressVersion,
        addresses: [...addresses],
      });
      return [{ ipSetReferenceStatement: { arn: set.attrArn } }];
    });
    const undeclared = ipSets.length === 0 ? {} : { scopeDownStatement: { notStatement: { statement: anyOf(ipSets) } } };
    const rules: { statement: Statement; action: CfnWebACL.RuleActionProperty }[] = [
      keyless(current, {}),
      ...deprecated.map((o) => keyless([o], deprecatedHeaders(o.deprecation))),
      { statement: rateBased(props.perIpPerMinute, undeclared), action: rateLimited },
      {
        statement: rateBased(props.perKeyPerMinute, {
          ...undeclared,
          aggregateKeyType: 'CUSTOM_KEYS',
          customKeys: [{ header: { name: 'authorization', textTransformations: API_KEY_TRANSFORMATIONS } }],
        }),
        action: rateLimited,
      },
      {
        statement: rateBased(props.docsPerIpPerMinute, { scopeDownStatement: underBase(REFERENCE_PAGE_RESOURCES, stageName) }),
        action: rateLimited,
      },
    ];
    this.webAcl = new CfnWebACL(this, 'WebAcl', {
      name,
      description: `Keyless requests and per-client rate limits of ${name}`,
      scope: 'REGIONAL',
      defaultAction: { allow: {} },
      visibilityConfig: visibility(name),
      customResponseBodies: {
        [UNAUTHORIZED_BODY_KEY]: { contentType: 'APPLICATION_JSON', content: errorBody('unauthorized', EDGE_UNAUTHORIZED_MESSAGE) },
        [RATE_LIMITED_BODY_KEY]: { contentType: 'APPLICATION_JSON', content: errorBody('too_many_requests', RATE_LIMITED_MESSAGE) },
      },
      rules: rules.map((rule, priority) => ({
        name: WEB_ACL_RULES[priority] as string,
        priority,
        ...rule,
        visibilityConfig: visibility(this.ruleMetricNames[priority] as string),
      })),
    });
    new CfnWebACLAssociation(this, 'Association', { resourceArn: props.stage.stageArn, webAclArn: this.webAcl.attrArn });
  }
}
