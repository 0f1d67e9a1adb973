/** Infrequent Access except where metric filters count from a group (docs/operators.md, Logs). */
import type { RemovalPolicy } from 'aws-cdk-lib';
import { LogGroup, LogGroupClass, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';

export function logGroupClass({ metricFilters }: { metricFilters: boolean }): LogGroupClass {
  return metricFilters ? LogGroupClass.STANDARD : LogGroupClass.INFREQUENT_ACCESS;
}

const NAME_SUFFIX: Record<LogGroupClass, string> = {
  [LogGroupClass.STANDARD]: '',
  [LogGroupClass.INFREQUENT_ACCESS]: '/infrequent-access',
  [LogGroupClass.DELIVERY]: '/delivery',
};

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
