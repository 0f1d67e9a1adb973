/**
 * The account-wide API Gateway logging role has one owner, PetStore-account: no stage writes the
 * account setting, so deploying or destroying one stage cannot change another's logging.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { Template } from 'aws-cdk-lib/assertions';
import { STAGE_NAMES } from '../../infra/cdk/stages.ts';
import { logicalId, resourcesOf, synth } from './synth.ts';

const app = synth();
afterAll(() => app.cleanup());
const account = Template.fromStack(app.account);

describe('PetStore-account', () => {
  it('sets the account-level logging role once, and keeps both when the stack is deleted', () => {
    account.resourceCountIs('AWS::ApiGateway::Account', 1);
    account.resourceCountIs('AWS::IAM::Role', 1);
    const [setting] = Object.values(resourcesOf(account, 'AWS::ApiGateway::Account'));
    expect(setting).toMatchObject({
      Properties: { CloudWatchRoleArn: { 'Fn::GetAtt': [logicalId(app.account.logsRole), 'Arn'] } },
      DeletionPolicy: 'Retain',
      UpdateReplacePolicy: 'Retain',
    });
    const [role] = Object.values(resourcesOf(account, 'AWS::IAM::Role'));
    expect(role).toMatchObject({ DeletionPolicy: 'Retain' });
    expect(JSON.stringify(role?.Properties)).toContain('service-role/AmazonAPIGatewayPushToCloudWatchLogs');
    expect(JSON.stringify(role?.Properties)).toContain('apigateway.amazonaws.com');
  });

  it.each(STAGE_NAMES)('is the only owner: PetStore-%s writes no account setting and has no logging role', (stage) => {
    const template = app.templates[stage];
    template.resourceCountIs('AWS::ApiGateway::Account', 0);
    expect(JSON.stringify(template.toJSON())).not.toContain('AmazonAPIGatewayPushToCloudWatchLogs');
  });
});
