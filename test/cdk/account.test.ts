/**
 * The account-wide API Gateway logging role has one owner, PetStore-account: no stage writes the
 * account setting, so deploying or destroying one stage cannot change another's logging. Each stage
 * depends on the account stack of its own account and region, so `cdk deploy PetStore-<stage>`
 * (which deploys a stack's dependencies first unless told --exclusively) sets the role before the
 * stage's logging needs it, on a new account and in any order.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { Template } from 'aws-cdk-lib/assertions';
import { ACCOUNT_STACK_NAME } from '../../infra/cdk/account-stack.ts';
import { STAGE_NAMES } from '../../infra/cdk/stages.ts';
import { logicalId, resourcesOf, synth } from './synth.ts';

const app = synth();
afterAll(() => app.cleanup());
const account = Template.fromStack(app.accounts.staging);

describe('PetStore-account', () => {
  it('sets the account-level logging role once, and keeps both when the stack is deleted, but not past a failed first create', () => {
    account.resourceCountIs('AWS::ApiGateway::Account', 1);
    account.resourceCountIs('AWS::IAM::Role', 1);
    const [setting] = Object.values(resourcesOf(account, 'AWS::ApiGateway::Account'));
    expect(setting).toMatchObject({
      Properties: { CloudWatchRoleArn: { 'Fn::GetAtt': [logicalId(app.accounts.staging.logsRole), 'Arn'] } },
      DeletionPolicy: 'RetainExceptOnCreate',
      UpdateReplacePolicy: 'Retain',
    });
    const [role] = Object.values(resourcesOf(account, 'AWS::IAM::Role'));
    expect(role).toMatchObject({ DeletionPolicy: 'RetainExceptOnCreate', UpdateReplacePolicy: 'Retain' });
    // Named by CloudFormation: IAM names are global to the account, and a region's stack must not take another's.
    expect(role?.Properties?.RoleName).toBeUndefined();
    expect(JSON.stringify(role?.Properties)).toContain('service-role/AmazonAPIGatewayPushToCloudWatchLogs');
    expect(JSON.stringify(role?.Properties)).toContain('apigateway.amazonaws.com');
  });

  it.each(STAGE_NAMES)('is the only owner: PetStore-%s writes no account setting and has no logging role', (stage) => {
    const template = app.templates[stage];
    template.resourceCountIs('AWS::ApiGateway::Account', 0);
    expect(JSON.stringify(template.toJSON())).not.toContain('AmazonAPIGatewayPushToCloudWatchLogs');
  });

  it.each(STAGE_NAMES)('is a dependency of PetStore-%s in the cloud assembly, which the CDK CLI deploys first', (stage) => {
    const assembly = app.app.synth();
    const dependencies = assembly.getStackArtifact(app.stacks[stage].artifactId).dependencies.map((d) => d.id);
    expect(dependencies).toContain(app.accounts[stage].artifactId);
    expect(app.accounts[stage].stackName).toBe(ACCOUNT_STACK_NAME);
    // Unpinned stages share the one environment-agnostic account stack.
    expect(app.accounts[stage]).toBe(app.accounts.staging);
  });

  it('gives a stage pinned to an account and region the account stack of that environment, shared by stages pinned alike', () => {
    const pin = (stage: string, account: string) => ({ [`${stage}.account`]: account, [`${stage}.region`]: 'eu-west-1' });
    const apart = synth({ context: { ...pin('staging', '111111111111'), ...pin('production', '222222222222') } });
    const together = synth({ context: { ...pin('staging', '111111111111'), ...pin('production', '111111111111') } });
    try {
      for (const stage of STAGE_NAMES) {
        const own = apart.accounts[stage];
        expect(own.environment).toBe(apart.stacks[stage].environment);
        expect(own.stackName).toBe(ACCOUNT_STACK_NAME);
        expect(apart.stacks[stage].dependencies).toContain(own);
      }
      expect(apart.accounts.staging).not.toBe(apart.accounts.production);
      expect(together.accounts.staging).toBe(together.accounts.production);
    } finally {
      apart.cleanup();
      together.cleanup();
    }
  });
});
