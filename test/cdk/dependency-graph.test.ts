/**
 * CloudFormation refuses a template whose resources depend on each other in a circle, and no
 * assertion on properties notices one. This walks the dependency graph of both synthesised stacks.
 */
import { Template } from 'aws-cdk-lib/assertions';
import { afterAll, describe, expect, it } from 'vitest';
import { type CfnTemplate, dependencyGraph, findCycles } from './dependency-graph.ts';
import { synth } from './synth.ts';

const cycles = (template: CfnTemplate) => findCycles(dependencyGraph(template));

describe('the dependency graph of a template', () => {
  it('follows Ref, both forms of Fn::GetAtt, Fn::Sub and DependsOn, but not Metadata or parameters', () => {
    const graph = dependencyGraph({
      Resources: {
        A: { Type: 'T', Properties: { X: { Ref: 'B' }, Y: { 'Fn::GetAtt': ['C', 'Arn'] }, Z: { 'Fn::GetAtt': 'D.Arn' } } },
        // biome-ignore lint/suspicious/noTemplateCurlyInString: Fn::Sub's own ${} syntax, not a template literal.
        B: { Type: 'T', Properties: { S: { 'Fn::Sub': 'arn:${AWS::Partition}:x:${E}:${F.Arn}:${!Literal}:${Bound}' } } },
        // biome-ignore lint/suspicious/noTemplateCurlyInString: Fn::Sub's own ${} syntax, not a template literal.
        C: { Type: 'T', Properties: { S: { 'Fn::Sub': ['${Bound}', { Bound: { Ref: 'G' } }] } }, DependsOn: 'H' },
        D: { Type: 'T', DependsOn: ['E', 'F'], Metadata: { Ref: 'A' } },
        E: { Type: 'T', Properties: { P: { Ref: 'SomeParameter' } } },
        F: { Type: 'T' },
        G: { Type: 'T' },
        H: { Type: 'T' },
      },
    });
    expect(Object.fromEntries([...graph].map(([id, targets]) => [id, [...targets].sort()]))).toEqual({
      A: ['B', 'C', 'D'],
      B: ['E', 'F'],
      C: ['G', 'H'],
      D: ['E', 'F'],
      E: [],
      F: [],
      G: [],
      H: [],
    });
  });

  it('finds a cycle closed through an UpdatePolicy, as CloudFormation does', () => {
    const template: CfnTemplate = {
      Resources: {
        Alias: { Type: 'AWS::Lambda::Alias', UpdatePolicy: { CodeDeployLambdaAliasUpdate: { DeploymentGroupName: { Ref: 'Group' } } } },
        Group: { Type: 'AWS::CodeDeploy::DeploymentGroup', Properties: { AlarmConfiguration: { Alarms: [{ Name: { Ref: 'Alarm' } }] } } },
        Alarm: { Type: 'AWS::CloudWatch::Alarm', Properties: { Dimensions: [{ Value: { Ref: 'Stage' } }] } },
        Stage: { Type: 'AWS::ApiGateway::Stage', Properties: { DeploymentId: { Ref: 'Deployment' } } },
        Deployment: { Type: 'AWS::ApiGateway::Deployment', DependsOn: ['Method'] },
        Method: { Type: 'AWS::ApiGateway::Method', Properties: { Uri: { 'Fn::Join': ['', ['arn:', { Ref: 'Alias' }]] } } },
        Bystander: { Type: 'T', Properties: { X: { Ref: 'Alias' } } },
      },
    };
    expect(cycles(template)).toEqual([['Alarm', 'Stage', 'Deployment', 'Method', 'Alias', 'Group', 'Alarm']]);
    const { UpdatePolicy: _, ...aliasWithoutPolicy } = template.Resources.Alias as Record<string, unknown>;
    expect(cycles({ Resources: { ...template.Resources, Alias: aliasWithoutPolicy as CfnTemplate['Resources'][string] } })).toEqual([]);
  });

  it('finds cycles through Fn::Sub and a resource that depends on itself', () => {
    expect(
      // biome-ignore lint/suspicious/noTemplateCurlyInString: Fn::Sub's own ${} syntax, not a template literal.
      cycles({ Resources: { A: { Type: 'T', Properties: { S: { 'Fn::Sub': '${B.Arn}' } } }, B: { Type: 'T', DependsOn: 'A' } } }),
    ).toEqual([['A', 'B', 'A']]);
    expect(cycles({ Resources: { A: { Type: 'T', Properties: { S: { Ref: 'A' } } } } })).toEqual([['A', 'A']]);
  });
});

describe('the synthesised stacks', () => {
  const app = synth();
  afterAll(() => app.cleanup());

  it.each(['staging', 'production', 'account'] as const)(
    'PetStore-%s has no dependency cycle, so CloudFormation can order its resources',
    (name) => {
      const template = (name === 'account' ? Template.fromStack(app.accounts.staging) : app.templates[name]).toJSON() as CfnTemplate;
      const graph = dependencyGraph(template);
      expect(graph.size).toBeGreaterThan(name === 'account' ? 1 : 50);
      const found = findCycles(graph).map((cycle) => cycle.join(' → '));
      expect(found, `circular dependencies in PetStore-${name}:\n${found.join('\n')}`).toEqual([]);
    },
  );
});
