/** The stage's AWS WAF web ACL, in front of API Gateway: what one client may cost everyone else. */
import { isIP } from 'node:net';
import { ArnFormat, Fn, Stack, Token } from 'aws-cdk-lib';
import type { CfnStage, Stage } from 'aws-cdk-lib/aws-apigateway';
import type { LogGroup } from 'aws-cdk-lib/aws-logs';
import { CfnIPSet, CfnLoggingConfiguration, CfnWebACL, CfnWebACLAssociation } from 'aws-cdk-lib/aws-wafv2';
import { Construct } from 'constructs';
import { API_KEY_PATTERN } from '#lib/auth/api-keys.ts';
import { BEARER_CHALLENGE, BEARER_SCHEME } from '#lib/http/bearer-auth.ts';
import { deprecationHeaders } from '#lib/http/deprecation.ts';
import { MAX_BODY_BYTES } from '#lib/http/json-body.ts';
import { REQUEST_ID_HEADER } from '#lib/http/request-line.ts';
import { COMMON_RESPONSE_HEADERS, rateLimitHeaders } from '#lib/http/response.ts';
import { mapValues } from '#lib/map-values.ts';
import { REFERENCE_PAGE_RESOURCES } from '#lib/openapi/reference-page.ts';
import { type ApiOperation, operations } from '#lib/operations.ts';
import { API_BASE_PATH, OPENAPI_DOCUMENT_PATH } from '#lib/routes.ts';
import { WAF_WINDOW_SECONDS } from '../capacity.ts';
import { pascal } from '../pascal.ts';
import { errorBody } from './gateway-responses.ts';

/** Keys of the custom response bodies the rules' Block actions send. */
export const RATE_LIMITED_BODY_KEY = 'too_many_requests';
export const UNAUTHORIZED_BODY_KEY = 'unauthorized';
export const FORBIDDEN_BODY_KEY = 'forbidden';
export const TOO_LARGE_BODY_KEY = 'payload_too_large';

/** The request id of the web ACL's 413: its headers are static, and the request reached no function. */
export const EDGE_REQUEST_ID = 'edge';
/** The rate rules' 429 bodies by key, each naming its limit (RateLimit-Policy's name for it, where it has one). */
const rateLimitedMessages = (props: WebAclProps): Record<string, string> =>
  mapValues(
    {
      [RATE_LIMITED_BODY_KEY]: `from this address: its limit ("per-address") is ${props.perIpPerMinute}`,
      [`${RATE_LIMITED_BODY_KEY}_per_key`]: `with this API key: its limit ("per-key") is ${props.perKeyPerMinute}`,
      [`${RATE_LIMITED_BODY_KEY}_docs`]: `from this address to the documentation: its limit there is ${props.docsPerIpPerMinute}`,
    },
    (what) => `Too many requests ${what} a minute, at the web ACL. Retry after the Retry-After delay.`,
  );
export const EDGE_UNAUTHORIZED_MESSAGE = `Missing or malformed API key: send it as "Authorization: ${BEARER_SCHEME} <API_KEY>", the scheme and the key separated by spaces only.`;

const current = operations.filter((o) => !o.deprecation);
/** The routes anyone may read without a key: the reference page, its assets and the OpenAPI document. */
const PUBLIC_RESOURCES = [...REFERENCE_PAGE_RESOURCES, OPENAPI_DOCUMENT_PATH];
const deprecated = operations.flatMap((o) => (o.deprecation ? [{ ...o, deprecation: o.deprecation }] : []));

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
  /** CIDR blocks whose every request gets a 403 (an operator's block list). */
  readonly blockedSources: readonly string[];
  /** Where WAF logs the requests it blocks (the group's name starts with `aws-waf-logs-`). */
  readonly logGroup: LogGroup;
}

type Statement = CfnWebACL.StatementProperty;

const NO_TRANSFORMATION: CfnWebACL.TextTransformationProperty[] = [{ priority: 0, type: 'NONE' }];

/**
 * How the per-key rule normalises the Authorization value before counting: runs of spaces become
 * one (`Bearer K` is `Bearer K`), then the scheme's case stops mattering (`bearer K`, `BEARER K`).
 */
export const API_KEY_TRANSFORMATIONS: CfnWebACL.TextTransformationProperty[] = [
  { priority: 0, type: 'COMPRESS_WHITE_SPACE' },
  { priority: 1, type: 'LOWERCASE' },
];

/** A well-formed bearer key, as the service parses it: the scheme in any case, one or more spaces, the key's own format. */
export function bearerKeyPattern(): string {
  const key = API_KEY_PATTERN.source.replace(/^\^/, '').replace(/\$$/, '');
  const scheme = [...BEARER_SCHEME].map((c) => `[${c.toUpperCase()}${c.toLowerCase()}]`).join('');
  return `^${scheme} +${key}$`;
}

/**
 * A request path to one of `resources` (route table paths with `{param}` placeholders) under the base path, as API Gateway routes it:
 * path parts separated by one or more slashes, a trailing slash ignored, a `{param}` one non-empty part; `/<stage>` in front (the
 * execute-api address) or not (a custom domain), the URI's scheme and host in front (an absolute-form target), and leading `..` parts
 * (which NORMALIZE_PATH keeps) allowed. No Host header decides which address it is: WAF may not see that header (docs/scaling.md, "The
 * edge").
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
  /** Each rule's metric name (the `Rule` dimension), in priority order. */
  readonly ruleMetricNames: readonly string[];
  /** Written by edge-blocks.ts only: its properties never change, so no deploy updates it (or lifts its blocks). */
  readonly automaticBlocks: CfnIPSet;

  constructor(scope: Construct, id: string, props: WebAclProps) {
    super(scope, id);
    // The stack's name (one stack per stage); the metric names start with it.
    const name = Stack.of(this).stackName;
    // The name as written: `Stage.stageName` is a reference, and a regex needs the text.
    const stageName = (props.stage.node.defaultChild as CfnStage).stageName;
    if (!stageName || Token.isUnresolved(stageName)) throw new Error('WebAcl needs a stage whose name is known at synth');
    this.metricName = name;
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
    const limits = { 'Retry-After': String(WAF_WINDOW_SECONDS), ...rateLimitHeaders(props, WAF_WINDOW_SECONDS) };
    const rateLimited = (suffix = '') => block(429, `${RATE_LIMITED_BODY_KEY}${suffix}`, limits);
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
    // An IP set per address version `cidrs` hold, each a statement matching the addresses in it.
    const ipSets = (id: string, cidrs: readonly string[]): Statement[] =>
      (['IPV4', 'IPV6'] as const).flatMap((ipAddressVersion) => {
        const addresses = cidrs.filter((cidr) => isIP(cidr.split('/')[0] ?? '') === (ipAddressVersion === 'IPV4' ? 4 : 6));
        if (addresses.length === 0) return [];
        const set = new CfnIPSet(this, `${pascal(id)}${ipAddressVersion}`, {
          name: `${name}-${id}-${ipAddressVersion.toLowerCase()}`,
          scope: 'REGIONAL',
          ipAddressVersion,
          addresses: [...addresses],
        });
        return [{ ipSetReferenceStatement: { arn: set.attrArn } }];
      });
    // The per-client rules count only requests from outside the declared load-test sources.
    const declared = ipSets('load-test-sources', props.loadTestSources);
    const undeclared = declared.length === 0 ? {} : { scopeDownStatement: { notStatement: { statement: anyOf(declared) } } };
    const blocked = ipSets('blocked-sources', props.blockedSources);
    // A block is no "slow down": 403, no Retry-After.
    const forbidden = block(403, FORBIDDEN_BODY_KEY, {});
    this.automaticBlocks = new CfnIPSet(this, 'AutomaticBlocksIPV4', {
      name: `${name}-automatic-blocks-ipv4`,
      scope: 'REGIONAL',
      ipAddressVersion: 'IPV4',
      addresses: [],
    });
    const rules: { name: string; statement: Statement; action: CfnWebACL.RuleActionProperty }[] = [
      ...(blocked.length === 0 ? [] : [{ name: 'blocked-sources', statement: anyOf(blocked), action: forbidden }]),
      { name: 'automatic-blocks', statement: { ipSetReferenceStatement: { arn: this.automaticBlocks.attrArn } }, action: forbidden },
      { name: 'keyless', ...keyless(current, {}) },
      ...deprecated.map((o) => ({ name: `keyless-${o.operationId}`, ...keyless([o], deprecatedHeaders(o.deprecation)) })),
      { name: 'per-source-ip', statement: rateBased(props.perIpPerMinute, undeclared), action: rateLimited() },
      {
        name: 'per-api-key',
        statement: rateBased(props.perKeyPerMinute, {
          ...undeclared,
          aggregateKeyType: 'CUSTOM_KEYS',
          customKeys: [{ header: { name: 'authorization', textTransformations: API_KEY_TRANSFORMATIONS } }],
        }),
        action: rateLimited('_per_key'),
      },
      {
        name: 'docs-per-source-ip',
        statement: rateBased(props.docsPerIpPerMinute, { scopeDownStatement: underBase(PUBLIC_RESOURCES, stageName) }),
        action: rateLimited('_docs'),
      },
      // A body over the service's limit: 413 at the edge, so none reaches a function (Lambda's 6 MB payload limit
      // would make 6-10 MB a 5xx). WAF sees at most the first 64 KB of a body (associationConfig); past it, MATCH.
      {
        name: 'body-size',
        statement: {
          sizeConstraintStatement: {
            fieldToMatch: { body: { oversizeHandling: 'MATCH' } },
            comparisonOperator: 'GT',
            size: MAX_BODY_BYTES,
            textTransformations: NO_TRANSFORMATION,
          },
        },
        // The document requires X-Request-Id on a 413 (1.1.0); WAF's headers are static, so it names the edge.
        action: block(413, TOO_LARGE_BODY_KEY, { [REQUEST_ID_HEADER]: EDGE_REQUEST_ID }),
      },
    ];
    this.ruleMetricNames = rules.map((rule) => `${name}-${rule.name}`);
    this.webAcl = new CfnWebACL(this, 'WebAcl', {
      name,
      description: `Keyless requests and per-client rate limits of ${name}`,
      scope: 'REGIONAL',
      defaultAction: { allow: {} },
      visibilityConfig: visibility(name),
      customResponseBodies: {
        [UNAUTHORIZED_BODY_KEY]: { contentType: 'APPLICATION_JSON', content: errorBody('unauthorized', EDGE_UNAUTHORIZED_MESSAGE) },
        ...mapValues(rateLimitedMessages(props), (message) => ({
          contentType: 'APPLICATION_JSON',
          content: errorBody('too_many_requests', message),
        })),
        [FORBIDDEN_BODY_KEY]: {
          contentType: 'APPLICATION_JSON',
          content: errorBody('forbidden', 'This source address is blocked for a time. Do not retry.'),
        },
        [TOO_LARGE_BODY_KEY]: {
          contentType: 'APPLICATION_JSON',
          content: errorBody('payload_too_large', `The request body is larger than ${MAX_BODY_BYTES} bytes.`),
        },
      },
      // The per-key rule's key is the Authorization header: WAF's log holds only its hash (docs/operators.md).
      dataProtectionConfig: {
        dataProtections: [{ field: { fieldType: 'SINGLE_HEADER', fieldKeys: ['authorization'] }, action: 'HASH' }],
      },
      associationConfig: { requestBody: { API_GATEWAY: { defaultSizeInspectionLimit: 'KB_64' } } },
      rules: rules.map((rule, priority) => ({
        priority,
        ...rule,
        visibilityConfig: visibility(this.ruleMetricNames[priority] as string),
      })),
    });
    new CfnWebACLAssociation(this, 'Association', { resourceArn: props.stage.stageArn, webAclArn: this.webAcl.attrArn });
    // What WAF blocked, never the key, to the group's ARN without the `:*` its attribute carries.
    const group = Stack.of(this).formatArn({
      service: 'logs',
      resource: 'log-group',
      resourceName: props.logGroup.logGroupName,
      arnFormat: ArnFormat.COLON_RESOURCE_NAME,
    });
    new CfnLoggingConfiguration(this, 'Logging', {
      resourceArn: this.webAcl.attrArn,
      logDestinationConfigs: [group],
      redactedFields: [{ singleHeader: { Name: 'authorization' } }],
      loggingFilter: {
        DefaultBehavior: 'DROP',
        Filters: [{ Behavior: 'KEEP', Requirement: 'MEETS_ANY', Conditions: [{ ActionCondition: { Action: 'BLOCK' } }] }],
      },
    });
  }
}
