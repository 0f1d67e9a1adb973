/**
 * The log groups the service writes per request, each in the cheapest class that does its job:
 * - The API's access log is of the Infrequent Access class, half the Standard ingestion price. What
 *   it gives up (metric and subscription filters, Live Tail, anomaly detection, Logs Insights'
 *   pattern/diff) nothing here uses: the dashboard reads it with Logs Insights queries, which
 *   work on the class, and the alarms watch metrics API Gateway and Lambda publish themselves.
 * - Each function's group is of the Standard class: the canary's alarms count each version's
 *   answers from the function's request line with metric filters (monitoring.ts), which the
 *   Infrequent Access class does not offer.
 *
 * A log group's class is fixed when the group is created: changing it replaces the group, and
 * CloudFormation refuses to replace a named resource under the same name. So the class is part of
 * the name, and a change of class is a new group (the old one kept or deleted with the stack's logs).
 */
import type { RemovalPolicy } from 'aws-cdk-lib';
import { LogGroup, LogGroupClass, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';

/** The class of each function's log group (metric filters need Standard). */
export const FUNCTION_LOG_GROUP_CLASS = LogGroupClass.STANDARD;
/** The class of the API's access log group. */
export const ACCESS_LOG_GROUP_CLASS = LogGroupClass.INFREQUENT_ACCESS;

const NAME_SUFFIX: Record<LogGroupClass, string> = {
  [LogGroupClass.STANDARD]: '',
  [LogGroupClass.INFREQUENT_ACCESS]: '/infrequent-access',
  [LogGroupClass.DELIVERY]: '/delivery',
};

/** `base` with the suffix of `logGroupClass`: none for Standard, `/aws/x/infrequent-access` for Infrequent Access. */
export function serviceLogGroupName(base: string, logGroupClass: LogGroupClass): string {
  return `${base}${NAME_SUFFIX[logGroupClass]}`;
}

export interface ServiceLogGroupProps {
  /** The name without the class suffix, e.g. `/aws/lambda/PetStore-staging-list-pets`. */
  readonly baseName: string;
  readonly logGroupClass: LogGroupClass;
  readonly retention: RetentionDays;
  readonly removalPolicy: RemovalPolicy;
}

export function serviceLogGroup(scope: Construct, id: string, props: ServiceLogGroupProps): LogGroup {
  return new LogGroup(scope, id, {
    logGroupName: serviceLogGroupName(props.baseName, props.logGroupClass),
    logGroupClass: props.logGroupClass,
    retention: props.retention,
    removalPolicy: props.removalPolicy,
  });
}
