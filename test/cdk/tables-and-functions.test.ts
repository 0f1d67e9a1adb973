/**
 * Tables and functions of both stages: tables built from lib/store/tables.ts with the stage's data
 * protection, one Node.js 24 arm64 function per operation, and exactly the DynamoDB access its
 * descriptor (lib/operations/) states.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { Match } from 'aws-cdk-lib/assertions';
import { ENV } from '#lib/config.ts';
import { type ApiOperation, type FunctionId, functionIds, operations } from '#lib/operations.ts';
import { AUTH_TABLE_ACCESS } from '#lib/operations/operation.ts';
import { allTables, apiKeysTable, idempotencyTable, petsTable } from '#lib/store/tables.ts';
import { MEMORY_MB } from '../../infra/cdk/function-limits.ts';
import { cdkJsonContext, STAGE_NAMES, type StageName } from '../../infra/cdk/stages.ts';
import { grantsOf } from '../support/operations.ts';
import { resourcesOf, synth, logicalId } from './synth.ts';

const app = synth();
afterAll(() => app.cleanup());

/** The environment variable that tells a function each table's name (lib/config.ts). */
const TABLE_VARIABLES: Record<string, string> = {
  [petsTable.logicalName]: ENV.petsTable,
  [apiKeysTable.logicalName]: ENV.apiKeysTable,
  [idempotencyTable.logicalName]: ENV.idempotencyTable,
};

function operationOf(functionId: FunctionId): ApiOperation {
  const operation = operations.find((o) => o.functionId === functionId);
  if (!operation) throw new Error(`No operation is answered by ${functionId}`);
  return operation;
}

/** The tables a function uses: its descriptor's, and the key lookup every operation makes. */
const tablesOf = (functionId: FunctionId) => Object.keys({ ...operationOf(functionId).tables, ...AUTH_TABLE_ACCESS });

function tableLogicalIds(stage: StageName): Record<string, string> {
  const stack = app.stacks[stage];
  return Object.fromEntries(stack.tables.all.map(({ definition, table }) => [logicalId(table), definition.logicalName]));
}

/** `dynamodb:X <table>[/index/<name>]` for every DynamoDB statement of the function's role. */
function dynamodbGrants(stage: StageName, functionId: FunctionId): string[] {
  const template = app.templates[stage];
  const fnId = logicalId(app.stacks[stage].functions[functionId]);
  const fn = template.toJSON().Resources[fnId];
  const roleId = fn.Properties.Role['Fn::GetAtt'][0] as string;
  const tables = tableLogicalIds(stage);
  const policies = Object.values(resourcesOf(template, 'AWS::IAM::Policy')).filter((p) =>
    JSON.stringify(p.Properties?.Roles).includes(`"${roleId}"`),
  );
  const grants: string[] = [];
  for (const policy of policies) {
    const statements = (policy.Properties?.PolicyDocument as { Statement: Array<Record<string, unknown>> } | undefined)?.Statement ?? [];
    for (const statement of statements) {
      expect(statement.Effect).toBe('Allow');
      const actions = [statement.Action].flat() as string[];
      if (actions.every((a) => a.startsWith('logs:') || a.startsWith('xray:'))) continue;
      for (const action of actions) {
        for (const resource of [statement.Resource].flat()) grants.push(`${action} ${describeTableArn(resource, tables)}`);
      }
    }
  }
  return grants;
}

function describeTableArn(resource: unknown, tables: Record<string, string>): string {
  const r = resource as { 'Fn::GetAtt'?: [string, string]; 'Fn::Join'?: [string, unknown[]] };
  if (r['Fn::GetAtt']?.[1] === 'Arn') return tables[r['Fn::GetAtt'][0]] ?? `unknown:${r['Fn::GetAtt'][0]}`;
  const parts = r['Fn::Join']?.[1];
  if (parts && parts.length === 2 && typeof parts[1] === 'string') return `${describeTableArn(parts[0], tables)}${parts[1]}`;
  return `unexpected:${JSON.stringify(resource)}`;
}

describe.each(STAGE_NAMES)('%s tables', (stage) => {
  const template = app.templates[stage];
  const production = stage === 'production';

  it.each(allTables.map((t) => [t.logicalName, t] as const))('%s follows its shared definition', (_name, definition) => {
    const keys = [
      definition.partitionKey,
      ...definition.globalSecondaryIndexes.flatMap((i) => [i.partitionKey, ...(i.sortKey ? [i.sortKey] : [])]),
    ];
    template.hasResource('AWS::DynamoDB::Table', {
      Properties: {
        TableName: `PetStore-${stage}-${definition.logicalName}`,
        BillingMode: 'PAY_PER_REQUEST',
        KeySchema: [{ AttributeName: definition.partitionKey.name, KeyType: 'HASH' }],
        AttributeDefinitions: Match.arrayEquals([
          ...new Map(keys.map((k) => [k.name, { AttributeName: k.name, AttributeType: k.type }])).values(),
        ]),
        GlobalSecondaryIndexes:
          definition.globalSecondaryIndexes.length === 0
            ? Match.absent()
            : definition.globalSecondaryIndexes.map((index) => ({
                IndexName: index.indexName,
                KeySchema: [
                  { AttributeName: index.partitionKey.name, KeyType: 'HASH' },
                  ...(index.sortKey ? [{ AttributeName: index.sortKey.name, KeyType: 'RANGE' }] : []),
                ],
                Projection: { ProjectionType: 'ALL' },
              })),
        TimeToLiveSpecification: definition.timeToLiveAttribute
          ? { AttributeName: definition.timeToLiveAttribute, Enabled: true }
          : Match.absent(),
        PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
        DeletionProtectionEnabled: production,
      },
      DeletionPolicy: production ? 'Retain' : 'Delete',
      UpdateReplacePolicy: production ? 'Retain' : 'Delete',
    });
  });

  it('keeps production log groups after the stack, but not after a failed first deploy (their names are fixed)', () => {
    const logGroups = Object.values(resourcesOf(template, 'AWS::Logs::LogGroup'));
    expect(logGroups.length).toBeGreaterThan(0);
    for (const group of logGroups) expect(group.DeletionPolicy).toBe(production ? 'RetainExceptOnCreate' : 'Delete');
  });

  it('retains past a failed deploy only the tables, in production: the one thing docs/operators.md says to clear', () => {
    // Retain (not RetainExceptOnCreate) keeps a resource through the rollback of the deploy that
    // created it, a first create or an update. The tables keep deletion protection, which DynamoDB
    // holds against CloudFormation too; a version that a rolled-back deploy published goes with it.
    const kept = Object.values(template.toJSON().Resources as Record<string, { Type: string; DeletionPolicy?: string }>)
      .filter((r) => r.DeletionPolicy === 'Retain')
      .map((r) => r.Type);
    expect(kept.sort()).toEqual(production ? allTables.map(() => 'AWS::DynamoDB::Table') : []);
  });

  it('names nothing global to an account without its region: roles and policies are named by CloudFormation', () => {
    for (const type of ['AWS::IAM::Role', 'AWS::IAM::ManagedPolicy', 'AWS::IAM::User', 'AWS::IAM::Group', 'AWS::IAM::InstanceProfile']) {
      for (const resource of Object.values(resourcesOf(template, type))) {
        expect(Object.keys(resource.Properties ?? {}).filter((key) => key.endsWith('Name'))).toEqual([]);
      }
    }
    const [dashboard] = Object.values(resourcesOf(template, 'AWS::CloudWatch::Dashboard'));
    expect(JSON.stringify(dashboard?.Properties?.DashboardName)).toContain('AWS::Region');
  });

  it('has the Pets table keyed by numeric id with the byStatus index, keyed by status and sorted by statusOrder', () => {
    template.hasResourceProperties('AWS::DynamoDB::Table', {
      TableName: `PetStore-${stage}-Pets`,
      KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
      AttributeDefinitions: Match.arrayEquals([
        { AttributeName: 'id', AttributeType: 'N' },
        { AttributeName: 'status', AttributeType: 'S' },
        { AttributeName: 'statusOrder', AttributeType: 'N' },
      ]),
      GlobalSecondaryIndexes: [
        Match.objectLike({
          IndexName: 'byStatus',
          KeySchema: [
            { AttributeName: 'status', KeyType: 'HASH' },
            { AttributeName: 'statusOrder', KeyType: 'RANGE' },
          ],
        }),
      ],
    });
    template.resourceCountIs('AWS::DynamoDB::Table', allTables.length);
  });

  it('protects the stack itself in production only', () => {
    expect(app.stacks[stage].terminationProtection).toBe(production);
  });
});

describe.each(STAGE_NAMES)('%s functions', (stage) => {
  const template = app.templates[stage];
  const retention = (cdkJsonContext().stages as Record<string, { logRetentionDays: number }>)[stage]?.logRetentionDays;

  it('has one function per route function, and the reference page function with no table at all', () => {
    // …and in production each one's pre-traffic hook (operations.test.ts), and the automatic blocks' function (edge-blocks.test.ts).
    template.resourceCountIs('AWS::Lambda::Function', (stage === 'production' ? 2 : 1) * functionIds.length + 2);
    const docs = template.toJSON().Resources[logicalId(app.stacks[stage].referenceFunction)];
    expect(docs.Properties).toMatchObject({ FunctionName: `PetStore-${stage}-docs`, Runtime: 'nodejs24.x', Architectures: ['arm64'] });
    expect(JSON.stringify(docs.Properties.Environment?.Variables ?? {})).not.toMatch(/TABLE/);
    const roleId = (docs.Properties.Role as { 'Fn::GetAtt': string[] })['Fn::GetAtt'][0];
    const policies = Object.values(resourcesOf(template, 'AWS::IAM::Policy')).filter((p) =>
      JSON.stringify(p.Properties?.Roles).includes(`"${roleId}"`),
    );
    expect(JSON.stringify(policies)).not.toContain('dynamodb:');
  });

  const logLevel = (cdkJsonContext().stages as Record<string, { logLevel: string }>)[stage]?.logLevel;

  it("logs at info in both stages (cdk.json): the request line names the key, so abuse is traced to a key, and production's canary counts each version's answers from it", () => {
    expect(logLevel).toBe('info');
  });

  it.each(functionIds)(
    "%s runs Node.js 24 on arm64, bundled CommonJS, with its own log group: Standard in production, where the canary's metric filters count from it, Infrequent Access in staging",
    (name) => {
      const fnId = logicalId(app.stacks[stage].functions[name]);
      const fn = template.toJSON().Resources[fnId];
      expect(fn.Properties).toMatchObject({
        FunctionName: `PetStore-${stage}-${name}`,
        Runtime: 'nodejs24.x',
        Architectures: ['arm64'],
        Handler: 'index.handler',
        MemorySize: MEMORY_MB,
        Timeout: 10,
        // The request line's embedded metrics go to the stack's namespace.
        Environment: { Variables: { LOG_LEVEL: logLevel, API_KEY_CACHE_SECONDS: '60', METRICS_NAMESPACE: `PetStore-${stage}` } },
        // Lambda's advanced logging: JSON lines, its own filter at the function's level, no START/END/REPORT.
        LoggingConfig: { LogFormat: 'JSON', ApplicationLogLevel: logLevel?.toUpperCase(), SystemLogLevel: 'WARN' },
      });
      expect(fn.Properties.Environment.Variables).not.toHaveProperty('NODE_OPTIONS');
      const logGroupId = fn.Properties.LoggingConfig.LogGroup.Ref as string;
      expect(template.toJSON().Resources[logGroupId]).toMatchObject({
        Type: 'AWS::Logs::LogGroup',
        // The class is part of the name (infra/cdk/constructs/log-groups.ts): a class change is a new group.
        Properties:
          stage === 'production'
            ? { LogGroupName: `/aws/lambda/PetStore-${stage}-${name}`, LogGroupClass: 'STANDARD', RetentionInDays: retention }
            : {
                LogGroupName: `/aws/lambda/PetStore-${stage}-${name}/infrequent-access`,
                LogGroupClass: 'INFREQUENT_ACCESS',
                RetentionInDays: retention,
              },
        // Kept when the stack goes, but not by the rollback of a failed first deploy: the name is fixed.
        DeletionPolicy: stage === 'production' ? 'RetainExceptOnCreate' : 'Delete',
      });
    },
  );

  it('gives the reference page function an Infrequent Access log group: nothing filters metrics from it', () => {
    const docs = template.toJSON().Resources[logicalId(app.stacks[stage].referenceFunction)];
    expect(template.toJSON().Resources[docs.Properties.LoggingConfig.LogGroup.Ref].Properties).toMatchObject({
      LogGroupName: `/aws/lambda/PetStore-${stage}-docs/infrequent-access`,
      LogGroupClass: 'INFREQUENT_ACCESS',
    });
  });

  it.each(functionIds)('%s is told exactly the table names it uses', (name) => {
    const fnId = logicalId(app.stacks[stage].functions[name]);
    const variables = template.toJSON().Resources[fnId].Properties.Environment.Variables as Record<string, unknown>;
    const tableVars = Object.keys(variables).filter((key) => key.endsWith('_TABLE_NAME'));
    expect(tableVars.sort()).toEqual(
      tablesOf(name)
        .map((table) => TABLE_VARIABLES[table])
        .sort(),
    );
    const tables = tableLogicalIds(stage);
    expect(tables[(variables[ENV.petsTable] as { Ref: string }).Ref]).toBe('Pets');
    expect(tables[(variables[ENV.apiKeysTable] as { Ref: string }).Ref]).toBe('ApiKeys');
  });

  it.each(functionIds)('%s may perform exactly its DynamoDB actions, on exactly its tables', (name) => {
    expect(dynamodbGrants(stage, name).sort()).toEqual(
      grantsOf(operationOf(name))
        .map((grant) => `dynamodb:${grant}`)
        .sort(),
    );
  });

  it('grants no wildcard action or resource and no managed policy to the function roles', () => {
    for (const name of functionIds) {
      const fnId = logicalId(app.stacks[stage].functions[name]);
      const roleId = template.toJSON().Resources[fnId].Properties.Role['Fn::GetAtt'][0] as string;
      const role = template.toJSON().Resources[roleId];
      expect(role.Properties.ManagedPolicyArns).toBeUndefined();
      const policies = Object.values(resourcesOf(template, 'AWS::IAM::Policy')).filter((p) =>
        JSON.stringify(p.Properties?.Roles).includes(`"${roleId}"`),
      );
      // X-Ray's two write actions support no resource-level permission: the one wildcard allowed,
      // and only where the stage traces (production by default).
      const statements = policies.flatMap(
        (p) => (p.Properties?.PolicyDocument as { Statement: Array<Record<string, unknown>> } | undefined)?.Statement ?? [],
      );
      const xray = statements.filter((st) => JSON.stringify(st.Action).includes('xray:'));
      expect(xray).toEqual(
        app.stacks[stage].settings.tracing
          ? [{ Effect: 'Allow', Action: ['xray:PutTraceSegments', 'xray:PutTelemetryRecords'], Resource: '*' }]
          : [],
      );
      expect(JSON.stringify(statements.filter((st) => !xray.includes(st)))).not.toMatch(/"\*"|dynamodb:\*/);
    }
  });

  it('traces the functions and the API stage with X-Ray exactly where the stage setting says (production by default)', () => {
    const tracing = app.stacks[stage].settings.tracing;
    expect(tracing).toBe(stage === 'production');
    for (const fn of Object.values(resourcesOf(template, 'AWS::Lambda::Function'))) {
      expect(fn.Properties?.TracingConfig).toEqual(tracing ? { Mode: 'Active' } : undefined);
    }
    const [deployed] = Object.values(resourcesOf(template, 'AWS::ApiGateway::Stage'));
    expect(deployed?.Properties?.TracingEnabled).toBe(tracing);
  });
});
