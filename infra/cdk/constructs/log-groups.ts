/**
 * The log groups the service writes per request (each function's, the API's access log) are of the
 * Standard class: the alarms count from them with metric filters (the clients' 5xx and the gateway's
 * 429 from the access log, each version's answers from its function's request line:
 * monitoring.ts), which the Infrequent Access class, at half the ingestion price, does not offer.
 *
 * A log group's class is fixed when the group is created: changing it replaces the group, and
 * CloudFormation refuses to replace a named resource under the same name. So the class is part of
 * the name, and a change of class is a new group (the old one kept or deleted with the stack's logs).
 */
import type { RemovalPolicy } from 'aws-cdk-lib';
import { LogGroup, LogGroupClass, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';

export const SERVICE_LOG_GROUP_CLASS = LogGroupClass.STANDARD;

const NAME_SUFFIX: Record<LogGroupClass, string> = {
  [LogGroupClass.STANDARD]: '',
  [LogGroupClass.INFREQUENT_ACCESS]: '/infrequent-access',
  [LogGroupClass.DELIVERY]: '/delivery',
};

/** `base` with the suffix of the service's log class: none for Standard, `/aws/lambda/f/infrequent-access` for Infrequent Access. */
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
