/**
 * The stage dashboard: every widget's metrics (namespace, name, dimensions, statistic) point at the
 * resources of the same template, the alarm widget shows every alarm, and its name and URL are
 * stack outputs. The DashboardBody is an Fn::Join of JSON text and references; the test joins it
 * with each reference written as `<Ref:Id>` / `<GetAtt:Id.Attr>` and parses the result.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { Match, type Template } from 'aws-cdk-lib/assertions';
import { API_BASE_PATH, routes } from '#lib/routes.ts';
import { BY_STATUS_INDEX, petsTable } from '#lib/store/tables.ts';
import { GATEWAY_THROTTLED_QUERY } from '../../infra/cdk/constructs/dashboard.ts';
import type { IConstruct } from 'constructs';
import { OUTPUT_IDS, STAGE_NAMES } from '../../infra/cdk/stages.ts';
import { logicalId, resourcesOf, synth } from './synth.ts';

const app = synth();
afterAll(() => app.cleanup());

interface WidgetMetric {
  readonly widget: string;
  readonly namespace: string;
  readonly name: string;
  readonly dimensions: Record<string, string>;
  readonly stat: string;
}

interface Widget {
  readonly type: string;
  readonly properties: { title?: string; metrics?: unknown[][]; alarms?: string[]; query?: string; view?: string };
}

/** The Fn::Join of a template value as one string, each reference written as a readable marker. */
function joined(value: unknown): string {
  if (typeof value === 'string') return value;
  const object = value as Record<string, unknown>;
  if ('Ref' in object) return `<Ref:${String(object.Ref)}>`;
  if ('Fn::GetAtt' in object) return `<GetAtt:${(object['Fn::GetAtt'] as string[]).join('.')}>`;
  if ('Fn::Join' in object) {
    const [separator, parts] = object['Fn::Join'] as [string, unknown[]];
    return parts.map(joined).join(separator);
  }
  throw new Error(`Unexpected intrinsic in the dashboard body: ${JSON.stringify(value)}`);
}

function dashboardOf(template: Template): { name: string; widgets: Widget[] } {
  const dashboards = Object.values(resourcesOf(template, 'AWS::CloudWatch::Dashboard'));
  expect(dashboards).toHaveLength(1);
  const properties = dashboards[0]?.Properties as { DashboardName: unknown; DashboardBody: unknown };
  return {
    name: joined(properties.DashboardName),
    widgets: (JSON.parse(joined(properties.DashboardBody)) as { widgets: Widget[] }).widgets,
  };
}

/** Each metric line of a widget: `[namespace, name, dim1, value1, …, { stat, … }]` (no stat: Average, the default); not the expressions. */
function metricsOf(widgets: readonly Widget[]): WidgetMetric[] {
  return widgets.flatMap((widget) =>
    (widget.properties.metrics ?? [])
      .filter((line) => line.length > 1)
      .map((line) => {
        const options = line.at(-1) as { stat?: string };
        const [namespace, name, ...rest] = line.slice(0, -1) as string[];
        const dimensions: Record<string, string> = {};
        for (let i = 0; i < rest.length; i += 2) dimensions[rest[i] as string] = rest[i + 1] as string;
        return {
          widget: widget.properties.title ?? '',
          namespace: namespace as string,
          name: name as string,
          dimensions,
          stat: options.stat ?? 'Average',
        };
      }),
  );
}

/** The metric-math expressions a widget graphs. */
function expressionsOf(widget: Widget | undefined): string[] {
  return (widget?.properties.metrics ?? []).flatMap((line) => {
    const [only] = line;
    return line.length === 1 && typeof only === 'object' && only !== null && 'expression' in only ? [String(only.expression)] : [];
  });
}

/** What the metrics of a namespace and dimensions are shown with: `name stat`, sorted. */
function shown(metrics: readonly WidgetMetric[], namespace: string, dimensions: Record<string, string>): string[] {
  const key = (d: Record<string, string>) => JSON.stringify(Object.entries(d).sort());
  return metrics
    .filter((m) => m.namespace === namespace && key(m.dimensions) === key(dimensions))
    .map((m) => `${m.name} ${m.stat}`)
    .sort();
}

/** Every API Gateway method of the template as `METHOD /path`, its path built from the resources' PathParts. */
function apiMethods(template: Template): string[] {
  const resources = resourcesOf(template, 'AWS::ApiGateway::Resource');
  const pathOf = (id: unknown): string => {
    const ref = (id as { Ref?: string }).Ref;
    const resource = ref ? resources[ref] : undefined;
    if (!resource) return ''; // the API's root resource
    const props = resource.Properties as { ParentId: unknown; PathPart: string };
    return `${pathOf(props.ParentId)}/${props.PathPart}`;
  };
  return Object.values(resourcesOf(template, 'AWS::ApiGateway::Method')).map((m) => {
    const props = m.Properties as { HttpMethod: string; ResourceId: unknown };
    return `${props.HttpMethod} ${pathOf(props.ResourceId)}`;
  });
}

const LATENCY = ['p50', 'p90', 'p99'];

describe.each(STAGE_NAMES)('the %s dashboard', (stage) => {
  const stack = app.stacks[stage];
  const template = app.templates[stage];
  const { name, widgets } = dashboardOf(template);
  const metrics = metricsOf(widgets);
  const apiDimensions = { ApiName: `PetStore-${stage}`, Stage: stage };

  it('is named after the stack and its region (dashboards are global to an account), with its name and console URL in the outputs', () => {
    expect(name).toBe(`PetStore-${stage}-<Ref:AWS::Region>`);
    const outputs = template.toJSON().Outputs;
    expect(joined(outputs[OUTPUT_IDS.dashboardName].Value)).toBe(name);
    expect(joined(outputs[OUTPUT_IDS.dashboardUrl].Value)).toBe(
      `https://<Ref:AWS::Region>.console.aws.amazon.com/cloudwatch/home?region=<Ref:AWS::Region>#dashboards/dashboard/${name}`,
    );
  });

  it("shows every alarm's state first", () => {
    const [first] = widgets;
    expect(first?.type).toBe('alarm');
    const alarms = Object.keys(resourcesOf(template, 'AWS::CloudWatch::Alarm')).map((id) => `<GetAtt:${id}.Arn>`);
    expect(alarms.length).toBeGreaterThan(0);
    expect([...(first?.properties.alarms ?? [])].sort()).toEqual(alarms.sort());
  });

  it('watches the REST API and stage of this template, whose detailed metrics are on', () => {
    const restApi = Object.values(resourcesOf(template, 'AWS::ApiGateway::RestApi'))[0];
    expect(restApi?.Properties?.Name).toBe(apiDimensions.ApiName);
    template.hasResourceProperties('AWS::ApiGateway::Stage', {
      StageName: apiDimensions.Stage,
      MethodSettings: Match.arrayWith([Match.objectLike({ HttpMethod: '*', ResourcePath: '/*', MetricsEnabled: true })]),
    });
    // Its 5xx rate is API Gateway's 5XXError plus every function's throttles (the gateway's 503) over Count.
    const functions = [...Object.values(stack.functions), stack.referenceFunction].map((fn) => `<Ref:${logicalId(fn)}>`);
    const serverErrors = ['AWS/ApiGateway 5XXError Sum', ...functions.map((fn) => `AWS/Lambda Throttles ${fn} Sum`)];
    const line = (m: WidgetMetric) => `${m.namespace} ${m.name} ${m.dimensions.FunctionName ?? ''} ${m.stat}`.replace('  ', ' ');
    const sum = ['FILL(apiErrors, 0)', ...functions.map((_, i) => `FILL(throttles${i}, 0)`)].join(' + ');
    const rates = widgets.find((w) => w.properties.title === 'API, all operations: 4xx and 5xx rates');
    expect(expressionsOf(rates)).toEqual([`(${sum}) / requests`]);
    expect(
      metricsOf(rates ? [rates] : [])
        .map(line)
        .sort(),
    ).toEqual(['AWS/ApiGateway 4XXError Average', 'AWS/ApiGateway Count Sum', ...serverErrors].sort());
    for (const m of metricsOf(rates ? [rates] : []).filter((m) => m.namespace === 'AWS/ApiGateway'))
      expect(m.dimensions).toEqual(apiDimensions);
    const seen = widgets.find((w) => w.properties.title?.startsWith('5xx as clients saw them'));
    expect(expressionsOf(seen)).toEqual([sum]);
    expect(
      metricsOf(seen ? [seen] : [])
        .map(line)
        .sort(),
    ).toEqual([...serverErrors].sort());
  });

  it("shows each limit's rejections: the gateway's 429 from the access log, every function's throttles and invocations against its rate", () => {
    const limits = widgets.filter((w) => w.properties.title?.startsWith('Limits:'));
    const ref = (fn: IConstruct) => `<Ref:${logicalId(fn)}>`;
    expect(
      metricsOf(limits)
        .filter((m) => m.namespace !== 'AWS/WAFV2')
        .map((m) => `${m.namespace} ${m.name} ${m.dimensions.FunctionName} ${m.stat}`)
        .sort(),
    ).toEqual(
      [
        ...[...Object.values(stack.functions), stack.referenceFunction].map((fn) => `AWS/Lambda Throttles ${ref(fn)} Sum`),
        ...Object.values(stack.functions).map((fn) => `AWS/Lambda Invocations ${ref(fn)} Sum`),
      ].sort(),
    );
    // Each alarm is drawn on its graph at its threshold.
    const annotated = limits.flatMap(
      (w) => (w.properties as { annotations?: { horizontal?: { value: number }[] } }).annotations?.horizontal ?? [],
    );
    expect(annotated.length).toBe(2 * Object.keys(stack.functions).length + 1);
    // The gateway's 429 has no metric: a Logs Insights query over this stage's access log, by minute.
    const queries = limits.filter((w) => w.type === 'log');
    expect(queries).toHaveLength(1);
    const accessLogs = logicalId(stack.api.accessLogGroup);
    expect(queries[0]?.properties.query).toBe(`SOURCE '<Ref:${accessLogs}>' | ${GATEWAY_THROTTLED_QUERY.join('\n| ')}`);
    expect(queries[0]?.properties.view).toBe('timeSeries');
    expect(GATEWAY_THROTTLED_QUERY.join(' ')).toMatch(/filter errorResponseType = "THROTTLED" .*by bin\(1m\)/);
    // …which the access log writes: `errorResponseType` is one of its fields.
    const apiStage = Object.values(resourcesOf(template, 'AWS::ApiGateway::Stage'))[0]?.Properties as {
      AccessLogSetting: { Format: string };
    };
    expect(JSON.parse(apiStage.AccessLogSetting.Format)).toHaveProperty('errorResponseType', '$context.error.responseType');
    // The access log's class and its lack of metric filters: api.test.ts and operations.test.ts.
  });

  it.each(routes)('has a row for $operationId: its method on API Gateway and its function', (route) => {
    const resource = `${API_BASE_PATH}${route.resource}`;
    expect(apiMethods(template)).toContain(`${route.method} ${resource}`);
    expect(shown(metrics, 'AWS/ApiGateway', { ...apiDimensions, Method: route.method, Resource: resource })).toEqual(
      ['4XXError Average', '5XXError Average', 'Count Sum', ...LATENCY.map((p) => `Latency ${p}`)].sort(),
    );
    const fn = `<Ref:${logicalId(stack.functions[route.functionId])}>`;
    // The stage-wide graphs (the 5xx clients saw, the limits) count every function's throttles too.
    const stageWide = ['Limits:', '5xx as clients saw them', 'API, all operations'];
    // The canary's graphs compare the deploying version with its function as a whole.
    const inRows = metrics.filter((m) => !stageWide.some((title) => m.widget.startsWith(title)) && !m.widget.includes(' canary: '));
    expect(shown(inRows, 'AWS/Lambda', { FunctionName: fn })).toEqual(
      ['ConcurrentExecutions Maximum', ...LATENCY.map((p) => `Duration ${p}`), 'Errors Sum', 'Throttles Sum'].sort(),
    );
    expect(inRows.filter((m) => m.dimensions.FunctionName === fn).every((m) => m.widget.startsWith(route.operationId))).toBe(true);
  });

  it('shows consumed capacity and throttling of every table and of the status index', () => {
    const capacity = [
      'ConsumedReadCapacityUnits Sum',
      'ConsumedWriteCapacityUnits Sum',
      'ReadThrottleEvents Sum',
      'WriteThrottleEvents Sum',
    ];
    for (const { definition, table } of stack.tables.all) {
      const tableName = `<Ref:${logicalId(table)}>`;
      expect(shown(metrics, 'AWS/DynamoDB', { TableName: tableName }), definition.logicalName).toEqual(capacity);
    }
    const pets = stack.tables.get(petsTable.logicalName);
    template.hasResourceProperties('AWS::DynamoDB::Table', {
      GlobalSecondaryIndexes: [Match.objectLike({ IndexName: BY_STATUS_INDEX })],
    });
    expect(
      shown(metrics, 'AWS/DynamoDB', { TableName: `<Ref:${logicalId(pets.table)}>`, GlobalSecondaryIndexName: BY_STATUS_INDEX }),
    ).toEqual(capacity);
  });

  it('watches the blocked requests of the stage’s web ACL by its rules’ metric names, or none without one', () => {
    const acl = Object.values(resourcesOf(template, 'AWS::WAFv2::WebACL'))[0]?.Properties as
      | { VisibilityConfig: { MetricName: string }; Rules: { VisibilityConfig: { MetricName: string } }[] }
      | undefined;
    const waf = metrics
      .filter((m) => m.namespace === 'AWS/WAFV2')
      .map((m) => `${m.dimensions.WebACL} ${m.dimensions.Rule} ${m.name} ${m.stat}`);
    if (!acl) {
      expect(waf).toEqual([]);
      return;
    }
    const rules = ['ALL', ...acl.Rules.map((rule) => rule.VisibilityConfig.MetricName)];
    expect(waf.sort()).toEqual(rules.map((rule) => `${acl.VisibilityConfig.MetricName} ${rule} BlockedRequests Sum`).sort());
  });

  it('graphs everything at the alarms’ one-minute period', () => {
    const periods = widgets.flatMap((w) => (w.properties.metrics ?? []).map((line) => (line.at(-1) as { period?: number }).period));
    expect(new Set(periods)).toEqual(new Set([60]));
  });
});

describe('a dashboard of a pinned stack', () => {
  it("carries its region in its name and in its web ACL's metrics", () => {
    const pinned = synth({ context: { 'staging.account': '123456789012', 'staging.region': 'eu-west-1' } });
    try {
      const { name, widgets } = dashboardOf(pinned.templates.staging);
      expect(name).toBe('PetStore-staging-eu-west-1');
      const waf = metricsOf(widgets).filter((m) => m.namespace === 'AWS/WAFV2');
      expect(waf.length).toBeGreaterThan(1);
      for (const m of waf) expect(m.dimensions.Region).toBe('eu-west-1');
    } finally {
      pinned.cleanup();
    }
  });
});
