/**
 * The stage's CloudWatch dashboard, the first page an operator opens: the alarms' states; the API
 * as a whole; what each limit rejected (the web ACL's blocks by rule, the methods' 429, the
 * functions' throttles) and the 5xx clients saw; per operation its requests, 4xx and 5xx rates,
 * latency at p50/p90/p99 (API Gateway and its function), the function's concurrency, errors and
 * throttles; per table and index the consumed capacity and throttling. Every graph is at the
 * alarms' one-minute period.
 */
import { Duration, Stack } from 'aws-cdk-lib';
import {
  AlarmStatusWidget,
  Dashboard,
  GraphWidget,
  type IAlarm,
  type IMetric,
  type IWidget,
  LogQueryVisualizationType,
  LogQueryWidget,
  Metric,
  Stats,
} from 'aws-cdk-lib/aws-cloudwatch';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';
import { API_BASE_PATH, type Route } from '#lib/routes.ts';
import type { ServiceTable } from './data-tables.ts';
import type { ServerErrorMetrics } from './monitoring.ts';

const PERIOD = Duration.minutes(1);
const PERCENTILES = [50, 90, 99] as const;
/** The dashboard grid is 24 units wide. */
const WIDTH = 24;

/** What identifies a web ACL's metrics: the `MetricName`s of its visibility configs, not its name. */
export interface WatchedWebAcl {
  readonly metricName: string;
  readonly ruleMetricNames: readonly string[];
}

export interface StageDashboardProps {
  /** The REST API's name and stage name, as plain strings (the alarms' dimensions; see Monitoring). */
  readonly api: { readonly apiName: string; readonly stageName: string };
  readonly routes: readonly Route[];
  /** The function behind each route, by function name. */
  readonly functions: Readonly<Record<string, IFunction>>;
  /** The reference page's function: its throttles are shown with the others'. */
  readonly referenceFunction: IFunction;
  readonly tables: readonly ServiceTable[];
  readonly alarms: readonly IAlarm[];
  /** 5xx as clients saw them (Monitoring). */
  readonly serverErrors: ServerErrorMetrics;
  /** The stage's access log group, which the gateway's 429 is counted from. */
  readonly accessLogGroupName: string;
  readonly webAcl?: WatchedWebAcl;
}

export class StageDashboard extends Construct {
  readonly dashboard: Dashboard;
  readonly dashboardName: string;
  /** The dashboard in the CloudWatch console. */
  readonly url: string;

  constructor(scope: Construct, id: string, props: StageDashboardProps) {
    super(scope, id);
    const stack = Stack.of(this);
    // Dashboards are global to an account (docs/operators.md): the region keeps each stage's its own.
    this.dashboardName = `${stack.stackName}-${stack.region}`;
    this.url = `https://${stack.region}.console.aws.amazon.com/cloudwatch/home?region=${stack.region}#dashboards/dashboard/${this.dashboardName}`;
    this.dashboard = new Dashboard(this, 'Dashboard', { dashboardName: this.dashboardName, defaultInterval: Duration.hours(3) });

    this.dashboard.addWidgets(new AlarmStatusWidget({ title: 'Alarms', alarms: [...props.alarms], width: WIDTH }));
    this.dashboard.addWidgets(...apiWidgets('API, all operations', props.api, props.serverErrors));
    this.dashboard.addWidgets(
      ...limitWidgets(props.serverErrors, props.accessLogGroupName, { ...props.functions, docs: props.referenceFunction }),
    );
    if (props.webAcl) this.dashboard.addWidgets(webAclWidget(props.webAcl, stack.region));
    for (const route of props.routes) {
      const fn = props.functions[route.functionId];
      if (!fn) throw new Error(`No function ${route.functionId} for ${route.operationId}`);
      this.dashboard.addWidgets(...operationWidgets(route, props.api, fn));
    }
    for (const { definition, table } of props.tables) {
      this.dashboard.addWidgets(...tableWidgets(definition.logicalName, { TableName: table.tableName }));
      for (const { indexName } of definition.globalSecondaryIndexes) {
        this.dashboard.addWidgets(
          ...tableWidgets(`${definition.logicalName} index ${indexName}`, {
            TableName: table.tableName,
            GlobalSecondaryIndexName: indexName,
          }),
        );
      }
    }
  }
}

type Dimensions = Record<string, string>;

function metric(namespace: string, metricName: string, dimensionsMap: Dimensions, statistic: string, label: string): Metric {
  return new Metric({ namespace, metricName, dimensionsMap, statistic, period: PERIOD, label });
}

function graph(title: string, left: IMetric[], width: number): GraphWidget {
  return new GraphWidget({ title, left, width, height: 6 });
}

/**
 * Requests, error rates and latency of API Gateway for these dimensions (the stage, or one method).
 * `serverErrorRate` replaces API Gateway's 5XXError, which leaves out the gateway's 503 for a throttled function.
 */
function apiGraphs(title: string, dimensions: Dimensions, width: number, serverErrorRate?: IMetric): GraphWidget[] {
  const api = (name: string, statistic: string, label: string) => metric('AWS/ApiGateway', name, dimensions, statistic, label);
  return [
    graph(`${title}: requests`, [api('Count', Stats.SUM, 'Requests')], width),
    // The average of 4XXError / 5XXError is the share of requests that ended so. API Gateway counts
    // its own answers (a 503 or 504 included) as 4XXError.
    graph(
      `${title}: 4xx and 5xx rates`,
      [
        api('4XXError', Stats.AVERAGE, '4xx rate (with the gateway’s own 5xx)'),
        serverErrorRate ?? api('5XXError', Stats.AVERAGE, '5xx rate (the function’s)'),
      ],
      width,
    ),
    graph(
      `${title}: API Gateway latency (ms)`,
      PERCENTILES.map((p) => api('Latency', Stats.p(p), `p${p}`)),
      width,
    ),
  ];
}

function apiWidgets(title: string, api: StageDashboardProps['api'], serverErrors: ServerErrorMetrics): IWidget[] {
  return apiGraphs(title, { ApiName: api.apiName, Stage: api.stageName }, WIDTH / 3, serverErrors.serverErrorRate);
}

/**
 * The gateway's 429 by the access log's `errorResponseType`: API Gateway publishes no metric of
 * its throttle, and Logs Insights reads the Infrequent Access class (log-groups.ts).
 */
export const GATEWAY_THROTTLED_QUERY = ['filter errorResponseType = "THROTTLED"', 'stats count() as throttled by bin(1m)'] as const;

/** What the limits behind the web ACL rejected, and the 5xx clients saw (counts per minute). */
function limitWidgets(
  serverErrors: ServerErrorMetrics,
  accessLogGroupName: string,
  functions: Readonly<Record<string, IFunction>>,
): IWidget[] {
  const width = WIDTH / 3;
  return [
    new LogQueryWidget({
      title: 'Limits: the methods’ throttle (the gateway’s 429, from the access log)',
      logGroupNames: [accessLogGroupName],
      queryLines: [...GATEWAY_THROTTLED_QUERY],
      view: LogQueryVisualizationType.LINE,
      width,
      height: 6,
    }),
    graph(
      'Limits: throttled functions (the gateway’s 503)',
      Object.entries(functions).map(([name, fn]) => metric('AWS/Lambda', 'Throttles', { FunctionName: fn.functionName }, Stats.SUM, name)),
      width,
    ),
    graph('5xx as clients saw them (the gateway’s 503 for throttles included)', [serverErrors.serverErrors], width),
  ];
}

/** A row per operation: API Gateway's view of its method (detailed metrics), then its function's. */
function operationWidgets(route: Route, api: StageDashboardProps['api'], fn: IFunction): IWidget[] {
  const title = `${route.operationId} (${route.method} ${API_BASE_PATH}${route.resource})`;
  const width = WIDTH / 6;
  const method = { ApiName: api.apiName, Stage: api.stageName, Method: route.method, Resource: `${API_BASE_PATH}${route.resource}` };
  const lambda = (name: string, statistic: string, label: string) =>
    metric('AWS/Lambda', name, { FunctionName: fn.functionName }, statistic, label);
  return [
    ...apiGraphs(title, method, width),
    graph(
      `${route.operationId}: function duration (ms)`,
      PERCENTILES.map((p) => lambda('Duration', Stats.p(p), `p${p}`)),
      width,
    ),
    graph(
      `${route.operationId}: function concurrency`,
      [lambda('ConcurrentExecutions', Stats.MAXIMUM, 'Concurrent executions (max)')],
      width,
    ),
    graph(
      `${route.operationId}: function errors and throttles`,
      [lambda('Errors', Stats.SUM, 'Errors'), lambda('Throttles', Stats.SUM, 'Throttles')],
      width,
    ),
  ];
}

/** Consumed capacity and throttle events of a table or one of its indexes. */
function tableWidgets(title: string, dimensions: Dimensions): IWidget[] {
  const dynamo = (name: string, label: string) => metric('AWS/DynamoDB', name, dimensions, Stats.SUM, label);
  return [
    graph(
      `${title}: consumed capacity units`,
      [dynamo('ConsumedReadCapacityUnits', 'Read'), dynamo('ConsumedWriteCapacityUnits', 'Write')],
      WIDTH / 2,
    ),
    graph(`${title}: throttle events`, [dynamo('ReadThrottleEvents', 'Read'), dynamo('WriteThrottleEvents', 'Write')], WIDTH / 2),
  ];
}

/** Requests the web ACL blocked: in all (WAF's `ALL` rule) and by each rule, whatever rules it has. */
function webAclWidget(webAcl: WatchedWebAcl, region: string): IWidget {
  const blocked = (rule: string, label: string) =>
    metric('AWS/WAFV2', 'BlockedRequests', { WebACL: webAcl.metricName, Rule: rule, Region: region }, Stats.SUM, label);
  return graph(
    'Limits: requests the web ACL blocked, by rule',
    [blocked('ALL', 'All rules'), ...webAcl.ruleMetricNames.map((rule) => blocked(rule, rule))],
    WIDTH,
  );
}
