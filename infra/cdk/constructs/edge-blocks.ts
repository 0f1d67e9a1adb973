/**
 * Automatic blocks at the edge: the access log, through a subscription filter, feeds the function that
 * writes the web ACL's automatic-blocks IP set (docs/scaling.md, "The edge: made-up keys"; docs/operators.md).
 */
import { Duration, Stack } from 'aws-cdk-lib';
import { type Alarm, Metric, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { FilterPattern, type LogGroup, SubscriptionFilter } from 'aws-cdk-lib/aws-logs';
import { LambdaDestination } from 'aws-cdk-lib/aws-logs-destinations';
import { Construct } from 'constructs';
import { FLOOD_ENV, type FloodRule } from '#lib/edge/flood-detector.ts';
import { API_BASE_PATH, routes } from '#lib/routes.ts';
import { WAF_MINIMUM_LIMIT, WAF_WINDOW_SECONDS } from '../capacity.ts';
import { ApiFunction, type ApiFunctionProps } from './api-function.ts';
import { logGroupClass } from './log-groups.ts';
import type { WebAcl } from './web-acl.ts';

/** The rule, from the model: the per-address window, WAF's smallest limit of 401s, half of what met the key check. */
export function floodRule(exempt: readonly string[]): FloodRule {
  return {
    windowSeconds: WAF_WINDOW_SECONDS,
    minUnauthorized: WAF_MINIMUM_LIMIT,
    unauthorizedShare: 0.5,
    blockSeconds: 3600,
    // WAF's largest IP set (https://docs.aws.amazon.com/waf/latest/developerguide/limits.html).
    maxBlocked: 10_000,
    keyedRoutes: routes.map((r) => `${r.method} ${API_BASE_PATH}${r.resource}`),
    exempt,
  };
}

export interface EdgeBlocksProps {
  readonly webAcl: WebAcl;
  readonly accessLogGroup: LogGroup;
  readonly rule: FloodRule;
  readonly fn: Pick<ApiFunctionProps, 'logLevel' | 'logRetention' | 'logRemovalPolicy' | 'tracing'>;
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
      ...props.fn,
      logGroupClass: logGroupClass({ metricFilters: false }),
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
    const dimensionsMap = { WebACL: props.webAcl.metricName, Rule: rule, Region: Stack.of(this).region };
    const blocked = new Metric({
      namespace: 'AWS/WAFV2',
      metricName: 'BlockedRequests',
      dimensionsMap,
      statistic: 'Sum',
      period: Duration.minutes(1),
    });
    this.alarm = blocked.createAlarm(this, 'Blocking', {
      alarmName: `${functionName}-blocking`,
      alarmDescription: 'The edge is refusing addresses it blocked automatically (docs/operators.md, "Automatic blocks").',
      threshold: 1,
      evaluationPeriods: 1,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });
  }
}
