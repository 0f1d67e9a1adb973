/**
 * A stage's REST API as its CloudFormation template describes it, read into plain data the local gateway serves: the resource tree and
 * its methods (MOCK or Lambda proxy), the gateway responses, the stage's throttling, the rules of a WAF web ACL on the stage (the
 * statements local mode can evaluate; any other is refused at load), and the functions the integrations invoke. Nothing here knows the
 * Pet Store's routes: whatever the CDK app synthesizes is what local mode serves.
 */
import type { BlockList } from 'node:net';
import { blockListOf, FLOOD_ENV, type FloodRule } from '#lib/edge/flood-detector.ts';

export interface CfnTemplate {
  readonly Resources: Readonly<Record<string, CfnResource>>;
  readonly Outputs?: Readonly<Record<string, { readonly Value: unknown }>>;
}

export interface CfnResource {
  readonly Type: string;
  readonly Properties?: Readonly<Record<string, unknown>>;
}

export interface ApiResource {
  /** `/v1/items/{itemId}`: the resource path API Gateway reports as `resource`. */
  readonly path: string;
  /** `items`, `{itemId}` or `{proxy+}`; empty for the root. */
  readonly pathPart: string;
  readonly children: ApiResource[];
  /** By HTTP method, `ANY` included. */
  readonly methods: Map<string, ApiMethod>;
}

export interface ApiMethod {
  readonly httpMethod: string;
  readonly integration: MockIntegration | ProxyIntegration;
}

export interface IntegrationResponse {
  readonly statusCode: string;
  readonly selectionPattern?: string;
  readonly responseParameters: Readonly<Record<string, string>>;
  readonly responseTemplates: Readonly<Record<string, string>>;
}

export interface MockIntegration {
  readonly type: 'MOCK';
  readonly passthroughBehavior: string;
  readonly requestTemplates: Readonly<Record<string, string>>;
  readonly integrationResponses: readonly IntegrationResponse[];
}

export interface ProxyIntegration {
  readonly type: 'AWS_PROXY';
  /** Logical id of the `AWS::Lambda::Function` the integration ends at (through an alias or not). */
  readonly functionId: string;
}

export interface GatewayResponseDefinition {
  readonly statusCode?: string;
  readonly responseParameters: Readonly<Record<string, string>>;
  readonly responseTemplates: Readonly<Record<string, string>>;
}

export interface ThrottleSetting {
  /** `/*` or a resource path; `*` or a method. */
  readonly resourcePath: string;
  readonly httpMethod: string;
  readonly rateLimit: number;
  readonly burstLimit: number;
}

export interface LambdaFunctionDefinition {
  readonly logicalId: string;
  readonly functionName: string;
  /** `index.handler`: module `index`, export `handler`. */
  readonly handler: string;
  readonly memoryMb: number;
  readonly timeoutSeconds: number;
  /** Values as in the template: strings, or intrinsic functions such as `{ Ref: <table> }`. */
  readonly environment: Readonly<Record<string, unknown>>;
  /** The S3 key of the code asset, which the cloud assembly's asset manifest maps to a folder. */
  readonly codeKey?: string;
  /** ReservedConcurrentExecutions: the most invocations at once; undefined: no limit of its own. */
  readonly reservedConcurrency?: number;
}

/** The text transformations local mode applies, as AWS WAF documents them (web-acl.ts). */
export const TEXT_TRANSFORMATIONS = ['NONE', 'LOWERCASE', 'COMPRESS_WHITE_SPACE', 'URL_DECODE', 'NORMALIZE_PATH'] as const;
export type TextTransformation = (typeof TEXT_TRANSFORMATIONS)[number];

/** The part of a request a statement inspects, and the transformations applied to it first, in order. */
export interface InspectedField {
  readonly field: { readonly uriPath: true } | { readonly method: true } | { readonly header: string };
  readonly transformations: readonly TextTransformation[];
}

/** The web ACL statements local mode evaluates. */
export type WafStatement =
  | { readonly and: readonly WafStatement[] }
  | { readonly or: readonly WafStatement[] }
  | { readonly not: WafStatement }
  /** An IP set's addresses, matched against the request's source IP. */
  | { readonly ipSet: LocalIpSet }
  /** A body larger than this many bytes. */
  | { readonly bodyLargerThan: number }
  | {
      readonly byteMatch: InspectedField & {
        readonly constraint: 'EXACTLY' | 'STARTS_WITH' | 'ENDS_WITH' | 'CONTAINS';
        readonly search: string;
      };
    }
  | { readonly regexMatch: InspectedField & { readonly pattern: RegExp } };

/** What a rate-based rule counts requests by: the source IP, or one request header's value, transformed. */
export type RateKey = { readonly ip: true } | { readonly header: string; readonly transformations: readonly TextTransformation[] };

/** A rule of a web ACL whose action is Block: a rate-based one, or one that blocks what its statement matches. */
export type WebAclRule = {
  readonly name: string;
  /** The Block action's response: WAF's default is a 403 with a plain body. */
  readonly response: { readonly status: number; readonly headers: Readonly<Record<string, string>>; readonly body: string };
} & (
  | {
      readonly rate: {
        /** Requests per window one aggregation key may make; over it, the rule blocks. */
        readonly limit: number;
        readonly windowSeconds: number;
        readonly key: RateKey;
        /** Only the requests it matches are counted. */
        readonly scopeDown?: WafStatement;
      };
    }
  | { readonly match: WafStatement }
);

/** A web ACL associated with the stage: its rules in priority order (the default action allows). */
export interface WebAclDefinition {
  readonly rules: readonly WebAclRule[];
  /** The automatic blocks, when a subscription filter feeds the function that writes one of its IP sets. */
  readonly floodBlocking?: { readonly rule: FloodRule; readonly ipSet: LocalIpSet };
}

/** An IP set of the template; local mode's automatic blocks replace its list at run time. */
export interface LocalIpSet {
  list: BlockList;
}

export interface RestApiDefinition {
  readonly name: string;
  /** Content encoding: bodies of at least this many bytes are compressed; undefined: never. */
  readonly minimumCompressionSize?: number;
  readonly stageName: string;
  readonly root: ApiResource;
  readonly gatewayResponses: ReadonlyMap<string, GatewayResponseDefinition>;
  readonly throttling: readonly ThrottleSetting[];
  readonly webAcl?: WebAclDefinition;
  readonly functions: ReadonlyMap<string, LambdaFunctionDefinition>;
  readonly outputs: Readonly<Record<string, unknown>>;
  /** The template itself, to resolve what the functions' environments refer to. */
  readonly resources: Readonly<Record<string, CfnResource>>;
}

/** Reads the one REST API of a stage template, with its stage, methods and functions. */
export function readRestApi(template: CfnTemplate): RestApiDefinition {
  const resources = template.Resources;
  const ofType = (type: string) => Object.entries(resources).filter(([, r]) => r.Type === type);
  const apis = ofType('AWS::ApiGateway::RestApi');
  if (apis.length !== 1) throw new Error(`Expected one AWS::ApiGateway::RestApi in the template, found ${apis.length}`);
  const [apiId, api] = apis[0] as [string, CfnResource];
  const stages = ofType('AWS::ApiGateway::Stage').filter(([, s]) => isRef(s.Properties?.RestApiId, apiId));
  if (stages.length !== 1) throw new Error(`Expected one stage of ${apiId}, found ${stages.length}`);
  const [stageId, stageResource] = stages[0] as [string, CfnResource];
  const stage = stageResource.Properties ?? {};

  // The tree: resources by logical id, linked to their parent; the root is the API's RootResourceId.
  const root: ApiResource = { path: '/', pathPart: '', children: [], methods: new Map() };
  const nodes = new Map<string, ApiResource>();
  const pending = ofType('AWS::ApiGateway::Resource');
  const parentOf = (props: Readonly<Record<string, unknown>>): ApiResource | undefined =>
    isGetAtt(props.ParentId, apiId, 'RootResourceId') ? root : nodes.get(refTarget(props.ParentId) ?? '');
  while (pending.length > 0) {
    const before = pending.length;
    for (let i = pending.length - 1; i >= 0; i--) {
      const [id, resource] = pending[i] as [string, CfnResource];
      const props = resource.Properties ?? {};
      const parent = parentOf(props);
      if (!parent) continue;
      const pathPart = String(props.PathPart);
      const node: ApiResource = {
        path: `${parent.path === '/' ? '' : parent.path}/${pathPart}`,
        pathPart,
        children: [],
        methods: new Map(),
      };
      parent.children.push(node);
      nodes.set(id, node);
      pending.splice(i, 1);
    }
    if (pending.length === before) throw new Error(`Resources without a parent in the template: ${pending.map(([id]) => id).join(', ')}`);
  }

  for (const [id, method] of ofType('AWS::ApiGateway::Method')) {
    const props = method.Properties ?? {};
    const node = isGetAtt(props.ResourceId, apiId, 'RootResourceId') ? root : nodes.get(refTarget(props.ResourceId) ?? '');
    if (!node) throw new Error(`Method ${id} is on a resource that is not in the template`);
    const httpMethod = String(props.HttpMethod).toUpperCase();
    node.methods.set(httpMethod, { httpMethod, integration: readIntegration(id, props.Integration, resources) });
  }

  const gatewayResponses = new Map<string, GatewayResponseDefinition>();
  for (const [, response] of ofType('AWS::ApiGateway::GatewayResponse')) {
    const props = response.Properties ?? {};
    gatewayResponses.set(String(props.ResponseType), {
      ...(props.StatusCode === undefined ? {} : { statusCode: String(props.StatusCode) }),
      responseParameters: strings(props.ResponseParameters),
      responseTemplates: strings(props.ResponseTemplates),
    });
  }

  const throttling = ((stage.MethodSettings ?? []) as Record<string, unknown>[])
    .filter((s) => s.ThrottlingRateLimit !== undefined || s.ThrottlingBurstLimit !== undefined)
    .map((s) => ({
      resourcePath: String(s.ResourcePath),
      httpMethod: String(s.HttpMethod),
      rateLimit: Number(s.ThrottlingRateLimit ?? 10_000),
      burstLimit: Number(s.ThrottlingBurstLimit ?? 5_000),
    }));

  const functions = new Map<string, LambdaFunctionDefinition>();
  // The functions a method invokes; not the others (production's pre-traffic hooks, which CodeDeploy runs).
  const integrations = [...nodes.values(), root].flatMap((n) => [...n.methods.values()].map((m) => m.integration));
  const invoked = new Set(integrations.map((i) => ('functionId' in i ? i.functionId : '')));
  for (const [id, fn] of ofType('AWS::Lambda::Function').filter(([id]) => invoked.has(id))) {
    const props = fn.Properties ?? {};
    // The automatic blocks' function: local mode runs its detector in the gateway.
    if (floodVariables(fn) !== undefined) continue;
    const code = (props.Code ?? {}) as Record<string, unknown>;
    functions.set(id, {
      logicalId: id,
      functionName: typeof props.FunctionName === 'string' ? props.FunctionName : id,
      handler: String(props.Handler ?? 'index.handler'),
      // Lambda's defaults when the template leaves them out.
      memoryMb: Number(props.MemorySize ?? 128),
      timeoutSeconds: Number(props.Timeout ?? 3),
      environment: (props.Environment as { Variables?: Record<string, unknown> } | undefined)?.Variables ?? {},
      ...(typeof code.S3Key === 'string' ? { codeKey: code.S3Key } : {}),
      ...(props.ReservedConcurrentExecutions === undefined ? {} : { reservedConcurrency: Number(props.ReservedConcurrentExecutions) }),
    });
  }

  const webAcl = readWebAcl(apiId, stageId, resources, new Map());
  const compression = api.Properties?.MinimumCompressionSize;
  return {
    name: String(api.Properties?.Name ?? apiId),
    ...(compression === undefined ? {} : { minimumCompressionSize: Number(compression) }),
    stageName: String(stage.StageName),
    root,
    gatewayResponses,
    throttling,
    ...(webAcl ? { webAcl } : {}),
    functions,
    outputs: Object.fromEntries(Object.entries(template.Outputs ?? {}).map(([id, output]) => [id, output.Value])),
    resources,
  };
}

/** The web ACL associated with the stage (its ARN names the stage), if any. */
function readWebAcl(
  apiId: string,
  stageId: string,
  resources: CfnTemplate['Resources'],
  ipSets: Map<string, LocalIpSet>,
): WebAclDefinition | undefined {
  const associations = Object.entries(resources).filter(
    ([, r]) => r.Type === 'AWS::WAFv2::WebACLAssociation' && references(r.Properties?.ResourceArn).includes(stageId),
  );
  if (associations.length === 0) return undefined;
  if (associations.length > 1)
    throw new Error(`Expected at most one web ACL association of stage ${stageId}, found ${associations.length}`);
  const [associationId, association] = associations[0] as [string, CfnResource];
  const [aclId] = references(association.Properties?.WebACLArn);
  const acl = aclId === undefined ? undefined : resources[aclId];
  if (acl?.Type !== 'AWS::WAFv2::WebACL') throw new Error(`Web ACL association ${associationId} names no web ACL of this template`);
  const props = acl.Properties ?? {};
  if (!isRecord(props.DefaultAction) || !('Allow' in props.DefaultAction)) {
    throw new Error(`Web ACL ${aclId}: local mode supports a default action of Allow only`);
  }
  const bodies = (props.CustomResponseBodies ?? {}) as Record<string, { ContentType?: string; Content?: string }>;
  const rules = [...((props.Rules ?? []) as Record<string, unknown>[])]
    .sort((a, b) => Number(a.Priority) - Number(b.Priority))
    .map((rule): WebAclRule => {
      const where = `Web ACL ${aclId} rule ${String(rule.Name)}`;
      const block = (rule.Action as { Block?: { CustomResponse?: Record<string, unknown> } } | undefined)?.Block;
      if (!block) throw new Error(`${where}: local mode supports rules that block, only`);
      const custom = block.CustomResponse;
      const body = custom?.CustomResponseBodyKey === undefined ? undefined : bodies[String(custom.CustomResponseBodyKey)];
      const headers: Record<string, string> = body ? { 'Content-Type': WAF_CONTENT_TYPES[String(body.ContentType)] ?? 'text/plain' } : {};
      for (const h of (custom?.ResponseHeaders ?? []) as { Name: string; Value: unknown }[]) {
        headers[h.Name] = headerValue(`${where} header ${h.Name}`, h.Value, [apiId, stageId]);
      }
      const response = custom
        ? { status: Number(custom.ResponseCode), headers, body: body?.Content ?? '' }
        : { status: 403, headers: { 'Content-Type': 'text/plain' }, body: 'Forbidden' };
      const statement = isRecord(rule.Statement) ? rule.Statement : {};
      const rate = statement.RateBasedStatement;
      if (isRecord(rate)) {
        return {
          name: String(rule.Name),
          response,
          rate: {
            limit: Number(rate.Limit),
            windowSeconds: Number(rate.EvaluationWindowSec ?? 300),
            key: rateKey(where, rate),
            ...(rate.ScopeDownStatement === undefined
              ? {}
              : { scopeDown: readStatement(`${where} scope-down`, rate.ScopeDownStatement, resources, ipSets) }),
          },
        };
      }
      return { name: String(rule.Name), response, match: readStatement(where, statement, resources, ipSets) };
    });
  // The function a subscription filter feeds that names its rule and IP set (infra/cdk/constructs/edge-blocks.ts).
  const subscribed = Object.values(resources).flatMap((r) =>
    r.Type === 'AWS::Logs::SubscriptionFilter' ? references(r.Properties?.DestinationArn) : [],
  );
  const flood = subscribed.map((id) => floodVariables(resources[id])).find((v) => v !== undefined);
  const ipSet = flood && ipSets.get(references(flood[FLOOD_ENV.ipSetId])[0] ?? '');
  if (!flood || !ipSet) return { rules };
  return { rules, floodBlocking: { rule: JSON.parse(String(flood[FLOOD_ENV.rule])) as FloodRule, ipSet } };
}

/** The environment of the automatic blocks' function; undefined for any other resource. */
function floodVariables(resource: CfnResource | undefined): Readonly<Record<string, unknown>> | undefined {
  const variables = (resource?.Properties?.Environment as { Variables?: Record<string, unknown> } | undefined)?.Variables;
  return resource?.Type === 'AWS::Lambda::Function' && variables?.[FLOOD_ENV.rule] !== undefined ? variables : undefined;
}

/** Where a block response's header names the stage's address, which the gateway replaces with its own (rest-api.ts). */
export const STAGE_ADDRESS = '\0stage address\0';

/**
 * A custom response header's value: text, or `Fn::Sub` over text and the stage's execute-api address
 * (`https://<api>.execute-api.<region>.<suffix>/<stage>`, then text), which local mode serves at its own address.
 */
function headerValue(where: string, value: unknown, [apiId, stageId]: [string, string]): string {
  if (typeof value === 'string') return value;
  const [text, variables = {}] = ((isRecord(value) && value['Fn::Sub']) || []) as [unknown, Record<string, unknown>?];
  // As CloudFormation spells it, every other part a Ref.
  const address = ['https://', apiId, '.execute-api.', 'AWS::Region', '.', 'AWS::URLSuffix', '/', stageId].map((p, i) =>
    i % 2 ? { Ref: p } : p,
  );
  const resolve = (v: unknown): string | undefined => {
    const [delimiter, parts = []] = ((isRecord(v) && v['Fn::Join']) || []) as [unknown, unknown[]?];
    const rest = parts.slice(address.length);
    const isAddress = delimiter === '' && JSON.stringify(parts.slice(0, address.length)) === JSON.stringify(address);
    return typeof v === 'string' ? v : isAddress && rest.every((p) => typeof p === 'string') ? STAGE_ADDRESS + rest.join('') : undefined;
  };
  const values = Object.entries(variables).map(([name, v]) => [name, resolve(v)] as const);
  if (typeof text !== 'string' || values.some(([, v]) => v === undefined)) {
    throw new Error(`${where}: local mode renders text, or Fn::Sub over text and the stage's execute-api address, only`);
  }
  return values.reduce((rendered, [name, v]) => rendered.replaceAll(`\${${name}}`, v as string), text);
}

/** WAF's names for a custom response body's media type. */
const WAF_CONTENT_TYPES: Readonly<Record<string, string>> = {
  APPLICATION_JSON: 'application/json',
  TEXT_PLAIN: 'text/plain',
  TEXT_HTML: 'text/html',
};

function rateKey(where: string, statement: Readonly<Record<string, unknown>>): RateKey {
  if (statement.AggregateKeyType === 'IP') return { ip: true };
  const keys = (statement.CustomKeys ?? []) as { Header?: { Name?: string; TextTransformations?: unknown } }[];
  const [only] = keys;
  const header = keys.length === 1 ? only?.Header : undefined;
  if (statement.AggregateKeyType === 'CUSTOM_KEYS' && header?.Name) {
    return { header: header.Name.toLowerCase(), transformations: readTransformations(where, header.TextTransformations) };
  }
  throw new Error(`${where}: local mode aggregates by IP or by one header only`);
}

/** A statement of the template, refused at load when local mode cannot evaluate it as WAF does. */
function readStatement(where: string, value: unknown, resources: CfnTemplate['Resources'], ipSets: Map<string, LocalIpSet>): WafStatement {
  const entries = isRecord(value) ? Object.entries(value) : [];
  const [type, props] = entries.length === 1 ? (entries[0] as [string, unknown]) : ['', undefined];
  const inner = isRecord(props) ? props : {};
  const statements = () => ((inner.Statements ?? []) as unknown[]).map((s) => readStatement(where, s, resources, ipSets));
  switch (type) {
    case 'AndStatement':
      return { and: statements() };
    case 'OrStatement':
      return { or: statements() };
    case 'NotStatement':
      return { not: readStatement(where, inner.Statement, resources, ipSets) };
    case 'IPSetReferenceStatement': {
      // An IP set of this template, matched against the source IP (no forwarded-IP header); one object per set.
      const id = references(inner.Arn)[0] ?? '';
      const set = resources[id];
      if (set?.Type !== 'AWS::WAFv2::IPSet' || inner.IPSetForwardedIPConfig !== undefined) {
        throw new Error(`${where}: local mode matches the source IP against an IP set of this template only`);
      }
      const ipSet = ipSets.get(id) ?? { list: blockListOf((set.Properties?.Addresses ?? []) as string[]) };
      ipSets.set(id, ipSet);
      return { ipSet };
    }
    case 'SizeConstraintStatement': {
      const field = isRecord(inner.FieldToMatch) ? Object.keys(inner.FieldToMatch).join() : '';
      if (field !== 'Body' || inner.ComparisonOperator !== 'GT') throw new Error(`${where}: local mode compares a Body's size, GT, only`);
      return { bodyLargerThan: Number(inner.Size) };
    }
    case 'ByteMatchStatement': {
      const constraint = String(inner.PositionalConstraint);
      if (constraint !== 'EXACTLY' && constraint !== 'STARTS_WITH' && constraint !== 'ENDS_WITH' && constraint !== 'CONTAINS') {
        throw new Error(`${where}: local mode does not support the byte match positional constraint ${constraint}`);
      }
      if (typeof inner.SearchString !== 'string') throw new Error(`${where}: local mode needs a byte match's SearchString as text`);
      return { byteMatch: { ...inspected(where, inner), constraint, search: inner.SearchString } };
    }
    case 'RegexMatchStatement': {
      let pattern: RegExp;
      try {
        pattern = new RegExp(String(inner.RegexString));
      } catch (error) {
        throw new Error(`${where}: local mode cannot compile the regex ${String(inner.RegexString)}: ${(error as Error).message}`);
      }
      return { regexMatch: { ...inspected(where, inner), pattern } };
    }
    default:
      throw new Error(
        `${where}: local mode does not evaluate ${type || JSON.stringify(value)} (it evaluates And, Or, Not, IPSetReference, SizeConstraint, ByteMatch and RegexMatch statements)`,
      );
  }
}

function inspected(where: string, statement: Readonly<Record<string, unknown>>): InspectedField {
  const field = isRecord(statement.FieldToMatch) ? statement.FieldToMatch : {};
  const names = Object.keys(field);
  const transformations = readTransformations(where, statement.TextTransformations);
  if (names.length === 1 && names[0] === 'UriPath') return { field: { uriPath: true }, transformations };
  if (names.length === 1 && names[0] === 'Method') return { field: { method: true }, transformations };
  const single = field.SingleHeader;
  if (names.length === 1 && isRecord(single) && typeof single.Name === 'string') {
    return { field: { header: single.Name.toLowerCase() }, transformations };
  }
  throw new Error(`${where}: local mode inspects UriPath, Method or a SingleHeader only, not ${names.join(', ') || 'nothing'}`);
}

function readTransformations(where: string, value: unknown): TextTransformation[] {
  const list = (Array.isArray(value) ? value : []) as { Priority?: unknown; Type?: unknown }[];
  return [...list]
    .sort((a, b) => Number(a.Priority) - Number(b.Priority))
    .map(({ Type }) => {
      const type = String(Type);
      if (!(TEXT_TRANSFORMATIONS as readonly string[]).includes(type)) {
        throw new Error(
          `${where}: local mode does not apply the text transformation ${type} (it applies ${TEXT_TRANSFORMATIONS.join(', ')})`,
        );
      }
      return type as TextTransformation;
    });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function readIntegration(methodId: string, value: unknown, resources: CfnTemplate['Resources']): MockIntegration | ProxyIntegration {
  const integration = (value ?? {}) as Record<string, unknown>;
  if (integration.Type === 'MOCK') {
    return {
      type: 'MOCK',
      passthroughBehavior: String(integration.PassthroughBehavior ?? 'WHEN_NO_MATCH'),
      requestTemplates: strings(integration.RequestTemplates),
      integrationResponses: ((integration.IntegrationResponses ?? []) as Record<string, unknown>[]).map((r) => ({
        statusCode: String(r.StatusCode),
        ...(typeof r.SelectionPattern === 'string' ? { selectionPattern: r.SelectionPattern } : {}),
        responseParameters: strings(r.ResponseParameters),
        responseTemplates: strings(r.ResponseTemplates),
      })),
    };
  }
  if (integration.Type === 'AWS_PROXY') {
    // The URI names the function by ARN: GetAtt of the function, or Ref of an alias or version.
    for (const target of references(integration.Uri)) {
      const functionId = lambdaFunctionOf(target, resources);
      if (functionId) return { type: 'AWS_PROXY', functionId };
    }
    throw new Error(`Method ${methodId}: its AWS_PROXY integration does not name a Lambda function of this template`);
  }
  throw new Error(`Method ${methodId}: integration type ${String(integration.Type)} is not supported by local mode`);
}

/** The function a Lambda function, alias or version resource stands for. */
function lambdaFunctionOf(id: string, resources: CfnTemplate['Resources']): string | undefined {
  const resource = resources[id];
  if (!resource) return undefined;
  if (resource.Type === 'AWS::Lambda::Function') return id;
  if (resource.Type === 'AWS::Lambda::Alias' || resource.Type === 'AWS::Lambda::Version') {
    const target = refTarget(resource.Properties?.FunctionName);
    return target ? lambdaFunctionOf(target, resources) : undefined;
  }
  return undefined;
}

/** Every logical id an expression refers to (`Ref`, `Fn::GetAtt`, `Fn::Sub`), in order. */
export function references(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(references);
  if (value === null || typeof value !== 'object') return [];
  const entries = Object.entries(value);
  const [key, arg] = entries[0] ?? [];
  if (entries.length === 1 && key === 'Ref' && typeof arg === 'string') return [arg];
  if (entries.length === 1 && key === 'Fn::GetAtt') return [Array.isArray(arg) ? String(arg[0]) : (String(arg).split('.')[0] as string)];
  if (entries.length === 1 && key === 'Fn::Sub') {
    const text = Array.isArray(arg) ? String(arg[0]) : String(arg);
    return [...text.matchAll(/\$\{([^}.!]+)[^}]*\}/g)].map((m) => m[1] as string);
  }
  return entries.flatMap(([, v]) => references(v));
}

function refTarget(value: unknown): string | undefined {
  const ref = (value as { Ref?: unknown } | undefined)?.Ref;
  return typeof ref === 'string' ? ref : undefined;
}

function isRef(value: unknown, id: string): boolean {
  return refTarget(value) === id;
}

function isGetAtt(value: unknown, id: string, attribute: string): boolean {
  const getAtt = (value as { 'Fn::GetAtt'?: unknown } | undefined)?.['Fn::GetAtt'];
  return Array.isArray(getAtt) && getAtt[0] === id && getAtt[1] === attribute;
}

function strings(value: unknown): Record<string, string> {
  return Object.fromEntries(Object.entries((value ?? {}) as Record<string, unknown>).map(([k, v]) => [k, String(v)]));
}
