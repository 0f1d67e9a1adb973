/**
 * One stage of the service (`PetStore-staging`, `PetStore-production`): tables, one function per
 * route, the REST API, alarms and, in production, canary deployments through CodeDeploy.
 */
import { CfnOutput, RemovalPolicy, Stack, type StackProps, Tags, Validations } from 'aws-cdk-lib';
import { LambdaApplication, LambdaDeploymentConfig, LambdaDeploymentGroup } from 'aws-cdk-lib/aws-codedeploy';
import { Alias, type IFunction } from 'aws-cdk-lib/aws-lambda';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { ENV } from '#lib/config.ts';
import { BUNDLED_ASSETS_DIR, REFERENCE_ASSETS } from '#lib/openapi/reference-page.ts';
import { type Route, routes } from '#lib/routes.ts';
import { BY_STATUS_INDEX, apiKeysTable, idempotencyTable, petsTable } from '#lib/store/tables.ts';
import { ApiFunction, type TableAccess } from './constructs/api-function.ts';
import { StageDashboard } from './constructs/dashboard.ts';
import { DataTables } from './constructs/data-tables.ts';
import { logGroupClass } from './constructs/log-groups.ts';
import { Monitoring } from './constructs/monitoring.ts';
import { PetStoreApi } from './constructs/pet-store-api.ts';
import { OUTPUT_IDS, type StageSettings, tableNameOutputId } from './stages.ts';
import { pascal } from './pascal.ts';

type FunctionName = Route['functionName'];

/** Exactly the DynamoDB access each function needs, by table logical name. */
export const FUNCTION_TABLE_ACCESS: Readonly<Record<FunctionName, Readonly<Record<string, TableAccess>>>> = {
  // Scan for the unfiltered list, Query on the status index for `?status=`.
  'list-pets': { [petsTable.logicalName]: { table: ['Scan'], indexes: { [BY_STATUS_INDEX]: ['Query'] } } },
  // Conditional PutItem of the pet. With an Idempotency-Key: reserve/read/repoint the record, and
  // read back the pet a retried request already created (lib/store/idempotency.ts).
  'create-pet': {
    [petsTable.logicalName]: { table: ['PutItem', 'GetItem'] },
    [idempotencyTable.logicalName]: { table: ['PutItem', 'GetItem', 'UpdateItem'] },
  },
  'get-pet': { [petsTable.logicalName]: { table: ['GetItem'] } },
};

/** Every function authenticates its caller: one GetItem on the key's hash. */
export const AUTH_TABLE_ACCESS: Readonly<Record<string, TableAccess>> = {
  [apiKeysTable.logicalName]: { table: ['GetItem'] },
};

/** The environment variable that carries each table's name (lib/config.ts). */
export const TABLE_ENV: Readonly<Record<string, string>> = {
  [petsTable.logicalName]: ENV.petsTable,
  [apiKeysTable.logicalName]: ENV.apiKeysTable,
  [idempotencyTable.logicalName]: ENV.idempotencyTable,
};

/** The alias API Gateway invokes in production, moved by CodeDeploy. */
export const LIVE_ALIAS = 'live';

export interface PetStoreStackProps extends StackProps {
  readonly settings: StageSettings;
}

export class PetStoreStack extends Stack {
  readonly settings: StageSettings;
  readonly tables: DataTables;
  readonly functions: Readonly<Record<FunctionName, ApiFunction>>;
  /** Production only: the `live` alias of each function, the API's integration target. */
  readonly liveAliases?: Readonly<Record<FunctionName, Alias>>;
  readonly deploymentGroups?: Readonly<Record<FunctionName, LambdaDeploymentGroup>>;
  readonly api: PetStoreApi;
  /** Serves the API reference page and its assets. */
  readonly referenceFunction: ApiFunction;
  readonly monitoring: Monitoring;
  readonly dashboard: StageDashboard;

  constructor(scope: Construct, id: string, props: PetStoreStackProps) {
    super(scope, id, {
      description: `Pet Store API, ${props.settings.stage} stage`,
      // Production cannot be deleted by a stray `cdk destroy`.
      terminationProtection: props.settings.production,
      // Pinned (context account/region): credentials for another account cannot deploy it.
      ...(props.settings.env ? { env: props.settings.env } : {}),
      ...props,
    });
    const { settings } = props;
    this.settings = settings;
    // Not on the dashboard: cfn-lint's resource schema does not accept a dashboard's Tags yet.
    const untagged = { excludeResourceTypes: ['AWS::CloudWatch::Dashboard'] };
    Tags.of(this).add('Project', 'PetStore', untagged);
    Tags.of(this).add('Stage', settings.stage, untagged);

    const logRetention = retentionDays(settings.logRetentionDays);
    // Production logs outlive the stack, but not a failed first deploy (RetainExceptOnCreate): their
    // names are fixed, and a log group kept by that rollback would make the retry fail.
    const logRemovalPolicy = settings.production ? RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE : RemovalPolicy.DESTROY;
    // What every function of the stage shares: its logs and its tracing.
    const stageFunction = { logRetention, logLevel: settings.logLevel, logRemovalPolicy, tracing: settings.tracing };

    this.tables = new DataTables(this, 'Tables', { protectData: settings.production });

    const functionNames = [...new Set(routes.map((r) => r.functionName))];
    const functions = {} as Record<FunctionName, ApiFunction>;
    for (const name of functionNames) {
      const fn = new ApiFunction(this, pascal(name), {
        entry: `functions/${name}.ts`,
        functionName: `${this.stackName}-${name}`,
        description: `Pet Store ${settings.stage}: ${describeRoutes(name)}`,
        ...stageFunction,
        // Production's canary counts each version's answers from the request line with metric filters.
        logGroupClass: logGroupClass({ metricFilters: settings.production }),
        retainVersions: settings.production,
        reservedConcurrency: settings.reservedConcurrency,
        environment: {
          [ENV.keyCacheSeconds]: String(settings.apiKeyCacheSeconds),
          ...(settings.allowedOrigins.length > 0 ? { [ENV.allowedOrigins]: settings.allowedOrigins.join(',') } : {}),
        },
      });
      for (const [logicalName, access] of Object.entries({ ...FUNCTION_TABLE_ACCESS[name], ...AUTH_TABLE_ACCESS })) {
        const envVar = TABLE_ENV[logicalName];
        if (!envVar) throw new Error(`No environment variable for table ${logicalName} (TABLE_ENV)`);
        fn.bindTable({ table: this.tables.get(logicalName), envVar, access });
      }
      functions[name] = fn;
    }
    this.functions = functions;

    // Production: the API invokes a `live` alias that CodeDeploy shifts; staging: the function itself,
    // so a deploy takes effect at once.
    let targets: Record<FunctionName, IFunction> = functions;
    if (settings.production) {
      const aliases = {} as Record<FunctionName, Alias>;
      for (const name of functionNames) {
        aliases[name] = new Alias(this, `${pascal(name)}Live`, {
          aliasName: LIVE_ALIAS,
          version: functions[name].currentVersion,
        });
      }
      this.liveAliases = aliases;
      targets = aliases;
    }

    // The API reference page (GET /v1/docs): public, no table, no canary (it serves files only).
    this.referenceFunction = new ApiFunction(this, 'Docs', {
      entry: 'functions/docs.ts',
      functionName: `${this.stackName}-docs`,
      description: `Pet Store ${settings.stage}: GET /v1/docs (API reference page)`,
      ...stageFunction,
      logGroupClass: logGroupClass({ metricFilters: false }),
      reservedConcurrency: settings.docsThrottlingBurstLimit,
      bundledFiles: {
        sources: Object.keys(REFERENCE_ASSETS).map((name) => `node_modules/swagger-ui-dist/${name}`),
        into: BUNDLED_ASSETS_DIR,
      },
    });

    this.api = new PetStoreApi(this, 'Api', { settings, targets, referenceTarget: this.referenceFunction, logRetention, logRemovalPolicy });
    // The names the API was given (PetStoreApi: restApiName = stack name, stageName = stage).
    const apiNames = { apiName: this.stackName, stageName: settings.stage };
    this.monitoring = new Monitoring(this, 'Monitoring', {
      settings,
      api: apiNames,
      functions,
      referenceFunction: this.referenceFunction,
      ...(this.liveAliases ? { liveAliases: this.liveAliases } : {}),
      tables: this.tables.all,
    });
    this.dashboard = new StageDashboard(this, 'Dashboard', {
      api: apiNames,
      routes,
      functions,
      referenceFunction: this.referenceFunction,
      tables: this.tables.all,
      alarms: this.monitoring.all,
      serverErrors: this.monitoring.serverErrors,
      accessLogGroupName: this.api.accessLogGroup.logGroupName,
      webAcl: this.api.webAcl,
    });

    if (this.liveAliases) {
      const application = new LambdaApplication(this, 'Deployments', { applicationName: this.stackName });
      const groups = {} as Record<FunctionName, LambdaDeploymentGroup>;
      for (const name of functionNames) {
        groups[name] = new LambdaDeploymentGroup(this, `${pascal(name)}Deployment`, {
          application,
          deploymentGroupName: name,
          alias: this.liveAliases[name],
          // 10% of traffic for 5 minutes, then all of it, unless an alarm fires first. A hotfix
          // deploy (docs/operators.md) goes all at once and past the alarms already firing.
          deploymentConfig: settings.hotfix ? LambdaDeploymentConfig.ALL_AT_ONCE : LambdaDeploymentConfig.CANARY_10PERCENT_5MINUTES,
          alarms: this.monitoring.alarmsFor(name),
          ignoreAlarmConfiguration: settings.hotfix,
          autoRollback: { failedDeployment: true, stoppedDeployment: true, deploymentInAlarm: !settings.hotfix },
        });
        Validations.of(groups[name]).acknowledge({
          id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSCodeDeployRoleForLambdaLimited]',
          reason: 'CodeDeploy needs this AWS-managed policy to shift traffic between function versions.',
        });
      }
      this.deploymentGroups = groups;
    }

    new CfnOutput(this, OUTPUT_IDS.baseUrl, {
      value: this.api.baseUrl,
      description: 'Base address of the API (ends in /v1)',
    });
    new CfnOutput(this, OUTPUT_IDS.executeApiBaseUrl, {
      value: this.api.executeApiBaseUrl,
      description: 'execute-api address of the stage (ends in /v1)',
    });
    for (const { definition, table } of this.tables.all) {
      new CfnOutput(this, tableNameOutputId(definition.logicalName), {
        value: table.tableName,
        description: `Physical name of the ${definition.logicalName} table`,
      });
    }
    new CfnOutput(this, OUTPUT_IDS.dashboardName, {
      value: this.dashboard.dashboardName,
      description: 'CloudWatch dashboard of the stage',
    });
    new CfnOutput(this, OUTPUT_IDS.dashboardUrl, {
      value: this.dashboard.url,
      description: 'The dashboard in the CloudWatch console',
    });
    if (this.monitoring.topic) {
      new CfnOutput(this, OUTPUT_IDS.alarmTopicArn, {
        value: this.monitoring.topic.topicArn,
        description: 'SNS topic the alarms notify',
      });
    }
  }
}

/** `GET /pets, POST /pets`: the routes a function serves. */
function describeRoutes(functionName: FunctionName): string {
  return routes
    .filter((r) => r.functionName === functionName)
    .map((r) => `${r.method} ${r.resource}`)
    .join(', ');
}

function retentionDays(days: number): RetentionDays {
  const valid = Object.values(RetentionDays).filter((v): v is RetentionDays => typeof v === 'number');
  const match = valid.find((v) => v === days);
  if (match === undefined) {
    throw new Error(`logRetentionDays ${days} is not a CloudWatch Logs retention (one of ${valid.join(', ')}).`);
  }
  return match;
}
