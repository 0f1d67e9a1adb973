/**
 * The log groups the service writes per request (each function's, the API's access log) are of the
 * Infrequent Access class, half the Standard ingestion price, except where metric filters count
 * from a group, which that class does not offer: production's route functions, whose request line
 * the canary's alarms count each version's answers from (monitoring.ts). What the others give up
 * (metric and subscription filters, Live Tail, anomaly detection, Logs Insights' pattern/diff)
 * nothing here uses: the dashboard reads the access log with Logs Insights queries, which work on
 * the class, and the other alarms watch metrics that Lambda, API Gateway and DynamoDB publish.
 *
 * A log group's class is fixed when the group is created: changing it replaces the group, and
 * CloudFormation refuses to replace a named resource under the same name. So the class is part of
 * the name, and a change of class is a new group (the old one kept or deleted with the stack's logs).
 */
import type { RemovalPolicy } from 'aws-cdk-lib';
import { LogGroup, LogGroupClass, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';

/** The class of a group: Standard when metric filters count from it, Infrequent Access otherwise. */
export function logGroupClass({ metricFilters }: { metricFilters: boolean }): LogGroupClass {
  return metricFilters ? LogGroupClass.STANDARD : LogGroupClass.INFREQUENT_ACCESS;
}

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
