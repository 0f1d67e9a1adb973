/**
 * One stage of the service (`PetStore-staging`, `PetStore-production`): tables, one function per operation (lib/operations/), the REST
 * API, alarms and, in production, canary deployments through CodeDeploy.
 */
import { type CfnElement, CfnOutput, Duration, RemovalPolicy, Stack, type StackProps, Tags, Validations } from 'aws-cdk-lib';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { LambdaApplication, LambdaDeploymentConfig, LambdaDeploymentGroup } from 'aws-cdk-lib/aws-codedeploy';
import { Alias, type IFunction } from 'aws-cdk-lib/aws-lambda';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { BackupPlan, BackupPlanRule, BackupResource, BackupVault } from 'aws-cdk-lib/aws-backup';
import type { Construct } from 'constructs';
import { ENV } from '#lib/config.ts';
import { BUNDLED_ASSETS_DIR, REFERENCE_ASSETS } from '#lib/openapi/reference-page.ts';
import { type FunctionId, operations } from '#lib/operations.ts';
import { AUTH_TABLE_ACCESS } from '#lib/operations/operation.ts';
import { apiKeysTable, idempotencyTable, petsTable } from '#lib/store/tables.ts';
import { ApiFunction } from './constructs/api-function.ts';
import { StageDashboard } from './constructs/dashboard.ts';
import { DataTables } from './constructs/data-tables.ts';
import { logGroupClass } from './constructs/log-groups.ts';
import { CANARY_DEPLOYMENT, Monitoring } from './constructs/monitoring.ts';
import { PetStoreApi } from './constructs/pet-store-api.ts';
import { Probe } from './constructs/probe.ts';
import { OUTPUT_IDS, type StageSettings, tableNameOutputId } from './stages.ts';
import { pascal } from './pascal.ts';
import { DOCS_FUNCTION, stageCapacity } from './capacity.ts';

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
  readonly functions: Readonly<Record<FunctionId, ApiFunction>>;
  /** Production only: the `live` alias of each function, the API's integration target. */
  readonly liveAliases?: Readonly<Record<FunctionId, Alias>>;
  readonly deploymentGroups?: Readonly<Record<FunctionId, LambdaDeploymentGroup>>;
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
    // Each function's reservation, when the stage reserves: its methods' concurrency need (capacity.ts).
    const capacity = stageCapacity(settings);
    const reservation = (id: string) => {
      const reserved = capacity.functions.find((f) => f.functionId === id)?.reservedConcurrency;
      return reserved === undefined ? {} : { reservedConcurrency: reserved };
    };

    const functions = {} as Record<FunctionId, ApiFunction>;
    for (const operation of operations) {
      const id = operation.functionId;
      const fn = new ApiFunction(this, pascal(id), {
        entry: `functions/${id}.ts`,
        functionName: `${this.stackName}-${id}`,
        description: `Pet Store ${settings.stage}: ${operation.method} ${operation.resource}`,
        ...stageFunction,
        // Production's canary counts each version's answers from the request line with metric filters.
        logGroupClass: logGroupClass({ metricFilters: settings.production }),
        retainVersions: settings.production,
        ...reservation(id),
        environment: {
          [ENV.keyCacheSeconds]: String(settings.apiKeyCacheSeconds),
          [ENV.metricsNamespace]: this.stackName,
          ...(settings.allowedOrigins.length > 0 ? { [ENV.allowedOrigins]: settings.allowedOrigins.join(',') } : {}),
          ...(settings.webAcl ? { [ENV.rateLimitHeaders]: JSON.stringify(capacity.limitHeaders) } : {}),
        },
      });
      for (const [logicalName, access] of Object.entries({ ...operation.tables, ...AUTH_TABLE_ACCESS })) {
        const envVar = TABLE_ENV[logicalName];
        if (!envVar) throw new Error(`No environment variable for table ${logicalName} (TABLE_ENV)`);
        fn.bindTable({ table: this.tables.get(logicalName), envVar, access });
      }
      functions[id] = fn;
    }
    this.functions = functions;

    // Production: the API invokes a `live` alias that CodeDeploy shifts; staging: the function itself,
    // so a deploy takes effect at once.
    let targets: Record<FunctionId, IFunction> = functions;
    if (settings.production) {
      const aliases = {} as Record<FunctionId, Alias>;
      for (const { functionId: id } of operations) {
        aliases[id] = new Alias(this, `${pascal(id)}Live`, { aliasName: LIVE_ALIAS, version: functions[id].currentVersion });
      }
      this.liveAliases = aliases;
      targets = aliases;
    }

    // The API reference page (GET /v1/docs): public, no table, no canary (it serves files only).
    this.referenceFunction = new ApiFunction(this, 'Docs', {
      entry: 'functions/docs.ts',
      functionName: `${this.stackName}-${DOCS_FUNCTION}`,
      description: `Pet Store ${settings.stage}: GET /v1/docs (API reference page)`,
      ...stageFunction,
      logGroupClass: logGroupClass({ metricFilters: false }),
      ...reservation(DOCS_FUNCTION),
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
      ...(this.api.webAcl ? { webAcl: this.api.webAcl } : {}),
    });
    if (this.monitoring.topic) this.api.edgeBlocks?.alarm.addAlarmAction(new SnsAction(this.monitoring.topic));
    const probe = new Probe(this, 'Probe', { stage: settings.stage, baseUrl: this.api.baseUrl, topic: this.monitoring.topic });
    this.dashboard = new StageDashboard(this, 'Dashboard', {
      monitoring: this.monitoring,
      alarms: [probe.alarm, ...(this.api.edgeBlocks ? [this.api.edgeBlocks.alarm] : [])],
      accessLogGroupName: this.api.accessLogGroup.logGroupName,
    });

    if (settings.production) {
      // AWS Backup's daily rule (05:00 UTC, kept 35 days), copied to a second region or account when a vault is given (docs/operators.md, "Restore").
      const vault = settings.backupCopyVaultArn && BackupVault.fromBackupVaultArn(this, 'BackupCopyVault', settings.backupCopyVaultArn);
      const copyActions = vault ? [{ destinationBackupVault: vault, deleteAfter: Duration.days(35) }] : [];
      const rule = new BackupPlanRule({ ...BackupPlanRule.daily().props, copyActions });
      const plan = new BackupPlan(this, 'Backups', { backupPlanName: this.stackName, backupPlanRules: [rule] });
      plan.backupVault.applyRemovalPolicy(RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE);
      const tables = plan.addSelection('Tables', {
        resources: this.tables.all.map(({ table }) => BackupResource.fromDynamoDbTable(table)),
      });
      const policy = 'Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSBackupServiceRolePolicyForBackup';
      Validations.of(tables).acknowledge({ id: `AwsSolutions-IAM4[${policy}]`, reason: 'AWS Backup needs it to back up the tables.' });
    }

    if (this.liveAliases) {
      const application = new LambdaApplication(this, 'Deployments', { applicationName: this.stackName });
      const groups = {} as Record<FunctionId, LambdaDeploymentGroup>;
      for (const { functionId: id } of operations) {
        // Before any traffic shifts, the new version must answer a made-up key (functions/pre-traffic.ts).
        const version = functions[id].currentVersion;
        const preHook = new ApiFunction(this, `${pascal(id)}PreTraffic`, {
          entry: 'functions/pre-traffic.ts',
          functionName: `${this.stackName}-${id}-pre-traffic`,
          description: `Pet Store ${settings.stage}: checks a new ${id} version before it takes traffic`,
          ...stageFunction,
          logGroupClass: logGroupClass({ metricFilters: false }),
          environment: { [ENV.preTrafficTarget]: version.functionArn },
        });
        version.grantInvoke(preHook);
        groups[id] = new LambdaDeploymentGroup(this, `${pascal(id)}Deployment`, {
          preHook,
          application,
          deploymentGroupName: id,
          alias: this.liveAliases[id],
          // 10% of traffic for 15 minutes, then all of it, unless an alarm fires first. A hotfix
          // deploy (docs/operators.md) goes all at once and past the alarms already firing.
          deploymentConfig: settings.hotfix ? LambdaDeploymentConfig.ALL_AT_ONCE : CANARY_DEPLOYMENT,
          alarms: this.monitoring.alarmsFor(id),
          ignoreAlarmConfiguration: settings.hotfix,
          autoRollback: { failedDeployment: true, stoppedDeployment: true, deploymentInAlarm: !settings.hotfix },
        });
        Validations.of(groups[id]).acknowledge({
          id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSCodeDeployRoleForLambdaLimited]',
          reason: 'CodeDeploy needs this AWS-managed policy to shift traffic between function versions.',
        });
        Validations.of(groups[id]).acknowledge({
          id: `AwsSolutions-IAM5[Resource::<${this.getLogicalId(preHook.node.defaultChild as CfnElement)}.Arn>:*]`,
          reason: 'CodeDeploy invokes its own pre-traffic hook function (any qualifier of it), which the CDK grants as the ARN and ARN:*.',
        });
      }
      this.deploymentGroups = groups;
    }

    // What the operator commands read (describe-stacks), by output id, with its description.
    const outputs: Record<string, [string, string]> = {
      [OUTPUT_IDS.baseUrl]: [this.api.baseUrl, 'Base address of the API (ends in /v1)'],
      [OUTPUT_IDS.executeApiBaseUrl]: [this.api.executeApiBaseUrl, 'execute-api address of the stage (ends in /v1)'],
      [OUTPUT_IDS.restApiId]: [this.api.api.restApiId, 'Id of the REST API'],
      ...Object.fromEntries(
        this.tables.all.map(({ definition: { logicalName }, table }) => [
          tableNameOutputId(logicalName),
          [table.tableName, `Physical name of the ${logicalName} table`],
        ]),
      ),
      [OUTPUT_IDS.dashboardName]: [this.dashboard.dashboardName, 'CloudWatch dashboard of the stage'],
      [OUTPUT_IDS.dashboardUrl]: [this.dashboard.url, 'The dashboard in the CloudWatch console'],
      ...(this.monitoring.topic ? { [OUTPUT_IDS.alarmTopicArn]: [this.monitoring.topic.topicArn, 'SNS topic the alarms notify'] } : {}),
    };
    for (const [id, [value, description]] of Object.entries(outputs)) new CfnOutput(this, id, { value, description });
  }
}

function retentionDays(days: number): RetentionDays {
  const valid = Object.values(RetentionDays).filter((v) => typeof v === 'number');
  if (valid.includes(days)) return days;
  throw new Error(`logRetentionDays ${days} is not a CloudWatch Logs retention (one of ${valid.join(', ')}).`);
}
