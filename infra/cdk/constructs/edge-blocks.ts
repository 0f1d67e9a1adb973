/**
 * Automatic blocks at the edge: the access log, through a subscription filter, feeds a function
 * that runs the flood detector (lib/edge/flood-detector.ts) and writes the addresses it blocks to
 * the web ACL's automatic-blocks IP set, which nothing else writes. Why and what it costs:
 * docs/scaling.md, "The edge: made-up keys"; what an operator does: docs/operators.md.
 */
import { Duration, type RemovalPolicy, Stack } from 'aws-cdk-lib';
import { Alarm, ComparisonOperator, Metric, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { FilterPattern, type LogGroup, type RetentionDays, SubscriptionFilter } from 'aws-cdk-lib/aws-logs';
import { LambdaDestination } from 'aws-cdk-lib/aws-logs-destinations';
import { Construct } from 'constructs';
import { FLOOD_ENV, type FloodRule } from '#lib/edge/flood-detector.ts';
import type { LogLevel } from '#lib/log.ts';
import { API_BASE_PATH, routes } from '#lib/routes.ts';
import { WAF_MINIMUM_LIMIT, WAF_WINDOW_SECONDS } from '../capacity.ts';
import { ApiFunction } from './api-function.ts';
import { logGroupClass } from './log-groups.ts';
import type { WebAcl } from './web-acl.ts';

/** WAF's largest IP set (https://docs.aws.amazon.com/waf/latest/developerguide/limits.html). */
const IP_SET_MAX_ADDRESSES = 10_000;

/**
 * The rule, from the model: the per-address rule's window; judged from WAF's smallest limit of
 * 401s (a client with an issued key gets none, and one told 401 fixes its key rather than retry);
 * blocked when at least half of what met the key check failed it, so valid requests mixed in
 * must match the 401s one for one, through one key's per-key limit.
 */
export function floodRule(exempt: readonly string[]): FloodRule {
  return {
    windowSeconds: WAF_WINDOW_SECONDS,
    minUnauthorized: WAF_MINIMUM_LIMIT,
    unauthorizedShare: 0.5,
    blockSeconds: 3600,
    maxBlocked: IP_SET_MAX_ADDRESSES,
    keyedRoutes: routes.map((r) => `${r.method} ${API_BASE_PATH}${r.resource}`),
    exempt,
  };
}

export interface EdgeBlocksProps {
  readonly webAcl: WebAcl;
  readonly accessLogGroup: LogGroup;
  readonly rule: FloodRule;
  readonly logLevel: LogLevel;
  readonly logRetention: RetentionDays;
  readonly logRemovalPolicy: RemovalPolicy;
  readonly tracing: boolean;
}

export class EdgeBlocks extends Construct {
  readonly function: ApiFunction;
  /** Fires while the automatic-blocks rule refuses requests. */
  readonly alarm: Alarm;

  constructor(scope: Construct, id: string, props: EdgeBlocksProps) {
    super(scope, id);
    const { automaticBlocks: ipSet } = props.webAcl;
    const functionName = `${Stack.of(this).stackName}-edge-blocks`;
    this.function = new ApiFunction(this, 'Function', {
      entry: 'functions/edge-blocks.ts',
      functionName,
      description: 'Blocks at the edge the addresses whose requests fail the key check (access log)',
      logLevel: props.logLevel,
      logRetention: props.logRetention,
      logRemovalPolicy: props.logRemovalPolicy,
      logGroupClass: logGroupClass({ metricFilters: false }),
      tracing: props.tracing,
      environment: {
        [FLOOD_ENV.rule]: JSON.stringify(props.rule),
        [FLOOD_ENV.ipSetName]: ipSet.name ?? '',
        [FLOOD_ENV.ipSetId]: ipSet.attrId,
      },
    });
    this.function.addToRolePolicy(new PolicyStatement({ actions: ['wafv2:GetIPSet', 'wafv2:UpdateIPSet'], resources: [ipSet.attrArn] }));
    new SubscriptionFilter(this, 'AccessLog', {
      logGroup: props.accessLogGroup,
      destination: new LambdaDestination(this.function),
      filterPattern: FilterPattern.allEvents(),
    });
    // Blocks end on the next batch after their time; this ends them on a stage with no traffic too.
    new Rule(this, 'Release', { schedule: Schedule.rate(Duration.minutes(5)), targets: [new LambdaFunction(this.function)] });
    const rule = props.webAcl.ruleMetricNames.find((name) => name.endsWith('-automatic-blocks')) ?? '';
    const blocked = new Metric({
      namespace: 'AWS/WAFV2',
      metricName: 'BlockedRequests',
      dimensionsMap: { WebACL: props.webAcl.metricName, Rule: rule, Region: Stack.of(this).region },
      statistic: 'Sum',
      period: Duration.minutes(1),
    });
    this.alarm = new Alarm(this, 'Blocking', {
      alarmName: `${functionName}-blocking`,
      alarmDescription: 'The edge is refusing addresses it blocked automatically (docs/operators.md, "Automatic blocks").',
      metric: blocked,
      threshold: 1,
      evaluationPeriods: 1,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });
  }
}
