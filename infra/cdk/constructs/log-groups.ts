/**
 * The log groups the service writes per request (each function's, the API's access log) are of the
 * Infrequent Access class: half the Standard ingestion price, and what they give up (metric and
 * subscription filters, Live Tail, anomaly detection, Logs Insights' pattern/diff) nothing here
 * uses; the alarms watch metrics that Lambda, API Gateway and DynamoDB publish themselves.
 *
 * A log group's class is fixed when the group is created: changing it replaces the group, and
 * CloudFormation refuses to replace a named resource under the same name. So the class is part of
 * the name, and a change of class is a new group (the old one kept or deleted with the stack's logs).
 */
import type { RemovalPolicy } from 'aws-cdk-lib';
import { LogGroup, LogGroupClass, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';

export const SERVICE_LOG_GROUP_CLASS = LogGroupClass.INFREQUENT_ACCESS;

const NAME_SUFFIX: Record<LogGroupClass, string> = {
  [LogGroupClass.STANDARD]: '',
  [LogGroupClass.INFREQUENT_ACCESS]: '/infrequent-access',
  [LogGroupClass.DELIVERY]: '/delivery',
};

/** `base` with the suffix of the service's log class: `/aws/lambda/f` → `/aws/lambda/f/infrequent-access`. */
export function serviceLogGroupName(base: string): string {
  return `${base}${NAME_SUFFIX[SERVICE_LOG_GROUP_CLASS]}`;
}

export interface ServiceLogGroupProps {
  /** The name without the class suffix, e.g. `/aws/lambda/PetStore-staging-list-pets`. */
  readonly baseName: string;
  readonly retention: RetentionDays;
  readonly removalPolicy: RemovalPolicy;
}

export function serviceLogGroup(scope: Construct, id: string, props: ServiceLogGroupProps): LogGroup {
  return new LogGroup(scope, id, {
    logGroupName: serviceLogGroupName(props.baseName),
    logGroupClass: SERVICE_LOG_GROUP_CLASS,
    retention: props.retention,
    removalPolicy: props.removalPolicy,
  });
}
