// API Gateway's logging role is per account and region: no stage owns it, so none can re-point another's logging.
import { RemovalPolicy, Stack, type StackProps, Tags, Validations } from 'aws-cdk-lib';
import { CfnAccount } from 'aws-cdk-lib/aws-apigateway';
import { ManagedPolicy, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { Construct } from 'constructs';

export const ACCOUNT_STACK_NAME = 'PetStore-account';

export class PetStoreAccountStack extends Stack {
  readonly logsRole: Role;

  constructor(scope: Construct, id: string, props: StackProps = {}) {
    super(scope, id, {
      description: 'Pet Store API: the account-wide API Gateway logging role (deploy once per account and region)',
      ...props,
    });
    Tags.of(this).add('Project', 'PetStore');

    this.logsRole = new Role(this, 'ApiGatewayLogsRole', {
      assumedBy: new ServicePrincipal('apigateway.amazonaws.com'),
      description: 'Lets API Gateway write the execution and access logs of every REST API stage in this account and region',
      managedPolicies: [ManagedPolicy.fromAwsManagedPolicyName('service-role/AmazonAPIGatewayPushToCloudWatchLogs')],
    });
    const account = new CfnAccount(this, 'ApiGatewayAccount', { cloudWatchRoleArn: this.logsRole.roleArn });
    // Retained: stages deployed later, or other APIs in the account, may log through it; but not
    // past a failed first create (RetainExceptOnCreate), which would orphan a role nothing uses.
    this.logsRole.applyRemovalPolicy(RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE);
    account.applyRemovalPolicy(RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE);

    Validations.of(this).acknowledge({
      id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs]',
      reason: 'The account-level API Gateway logging role needs exactly this AWS-managed policy.',
    });
  }
}
