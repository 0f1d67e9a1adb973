/**
 * The one Lambda function construct every route uses: a NodejsFunction with the service's runtime,
 * architecture, bundling, sizing and an explicit log group, whose role holds nothing but log writes
 * until a table is bound to it with exactly the DynamoDB actions the route needs.
 */
import { isAbsolute, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Duration, RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import { CfnPolicy, PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import {
  ApplicationLogLevel,
  Architecture,
  type CfnFunction,
  LoggingFormat,
  Runtime,
  SystemLogLevel,
  Tracing,
} from 'aws-cdk-lib/aws-lambda';
import { type BundlingOptions, NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import type { LogGroupClass, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { ENV } from '#lib/config.ts';
import type { LogLevel } from '#lib/log.ts';
import type { TableAccess } from '#lib/operations/operation.ts';
import { BUNDLE_FILE, BUNDLE_PACKAGE_JSON, esbuildOptions } from '../bundling.ts';
import { MEMORY_MB, TIMEOUT_SECONDS } from '../function-limits.ts';
import type { ServiceTable } from './data-tables.ts';
import { serviceLogGroup } from './log-groups.ts';

/** The repository root: the bundling input, holding package-lock.json and functions/. */
export const PROJECT_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

export interface BindTableProps {
  readonly table: ServiceTable;
  /** Environment variable that tells the function the table's name (lib/config.ts `ENV`). */
  readonly envVar: string;
  readonly access: TableAccess;
}

export interface ApiFunctionProps {
  /** Handler module, e.g. `functions/list-pets.ts` (absolute or relative to the repository root). */
  readonly entry: string;
  readonly functionName: string;
  readonly description?: string;
  readonly logRetention: RetentionDays;
  /** The function's LOG_LEVEL, and the level Lambda's own filter applies to its JSON lines. */
  readonly logLevel: LogLevel;
  /** Of the log group: kept in production, removed with a staging stack. */
  readonly logRemovalPolicy: RemovalPolicy;
  /** Of the log group (log-groups.ts `logGroupClass`): Standard only if metric filters count from it. */
  readonly logGroupClass: LogGroupClass;
  readonly environment?: Readonly<Record<string, string>>;
  /**
   * Keep each version a successful deploy published, for pointing `live` back by hand; one whose
   * deploy rolls back is deleted (RetainExceptOnCreate), so the same code can be published again.
   */
  readonly retainVersions?: boolean;
  /** At most this many executions at once (Lambda's reserved concurrency, also held back from the account's other functions). */
  readonly reservedConcurrency?: number;
  /** X-Ray active tracing (the stage setting `tracing`). */
  readonly tracing?: boolean;
  /** Files copied beside the bundle (repository-relative sources → a folder in the asset). */
  readonly bundledFiles?: { readonly sources: readonly string[]; readonly into: string };
}

export class ApiFunction extends NodejsFunction {
  constructor(scope: Construct, id: string, props: ApiFunctionProps) {
    // An explicit group: retention, removal and class are ours, not Lambda's never-expiring default.
    const logGroup = serviceLogGroup(scope, `${id}LogGroup`, {
      baseName: `/aws/lambda/${props.functionName}`,
      logGroupClass: props.logGroupClass,
      retention: props.logRetention,
      removalPolicy: props.logRemovalPolicy,
    });
    // Our own role instead of AWSLambdaBasicExecutionRole: it may write to this log group only.
    const role = new Role(scope, `${id}Role`, {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      description: `Execution role of ${props.functionName}`,
    });

    super(scope, id, {
      entry: isAbsolute(props.entry) ? props.entry : join(PROJECT_ROOT, props.entry),
      handler: 'handler',
      functionName: props.functionName,
      ...(props.description ? { description: props.description } : {}),
      runtime: Runtime.NODEJS_24_X,
      architecture: Architecture.ARM_64,
      memorySize: MEMORY_MB,
      timeout: Duration.seconds(TIMEOUT_SECONDS),
      ...(props.reservedConcurrency === undefined ? {} : { reservedConcurrentExecutions: props.reservedConcurrency }),
      projectRoot: PROJECT_ROOT,
      depsLockFilePath: join(PROJECT_ROOT, 'package-lock.json'),
      bundling: nodejsBundling(props.bundledFiles),
      // No NODE_OPTIONS=--enable-source-maps: logged stacks are mapped when logged (lib/source-mapped-stack.ts).
      environment: { [ENV.logLevel]: props.logLevel, ...props.environment },
      logGroup,
      // JSON lines, filtered by level by Lambda too; its START/END/REPORT lines (INFO) are dropped:
      // duration, errors and throttles are Lambda's metrics, and API Gateway logs every request.
      loggingFormat: LoggingFormat.JSON,
      systemLogLevelV2: SystemLogLevel.WARN,
      applicationLogLevelV2: APPLICATION_LOG_LEVEL[props.logLevel],
      role,
      ...(props.retainVersions ? { currentVersionOptions: { removalPolicy: RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE } } : {}),
      tracing: props.tracing ? Tracing.ACTIVE : Tracing.DISABLED,
    });
    logGroup.grantWrite(role);
    if (props.tracing) {
      Validations.of(role).acknowledge({
        id: 'AwsSolutions-IAM5[Resource::*]',
        reason:
          'X-Ray tracing: xray:PutTraceSegments and xray:PutTelemetryRecords support no resource-level permissions. Every DynamoDB grant names its table (bindTable).',
      });
    }

    // Lambda's Function makes the function depend on its whole role construct: the role, which the
    // GetAtt of its ARN already implies (cfn-lint W3005), and the role's policy, which nothing else
    // implies and which must exist before the function runs. Keep only the policy.
    const policy = role.node.tryFindChild('DefaultPolicy')?.node.defaultChild;
    if (!(policy instanceof CfnPolicy)) throw new Error(`${this.node.path}: its role has no policy`);
    (this.node.defaultChild as CfnFunction).addOverride('DependsOn', [Stack.of(this).getLogicalId(policy)]);
  }

  /**
   * Tells the function a table's name and grants exactly the listed actions: on the table ARN for
   * `access.table`, on `<table ARN>/index/<name>` for `access.indexes`. Nothing else is implied.
   */
  bindTable({ table, envVar, access }: BindTableProps): void {
    const tableActions = access.table ?? [];
    const indexes = Object.entries(access.indexes ?? {});
    if (tableActions.length === 0 && indexes.every(([, actions]) => actions.length === 0)) {
      throw new Error(`bindTable(${table.definition.logicalName}) on ${this.node.path} grants no action`);
    }
    this.addEnvironment(envVar, table.table.tableName);
    if (tableActions.length > 0) {
      this.addToRolePolicy(new PolicyStatement({ actions: dynamodb(tableActions), resources: [table.table.tableArn] }));
    }
    for (const [indexName, actions] of indexes) {
      if (!table.definition.globalSecondaryIndexes.some((index) => index.indexName === indexName)) {
        throw new Error(`Table ${table.definition.logicalName} has no index ${indexName}`);
      }
      if (actions.length === 0) continue;
      this.addToRolePolicy(
        new PolicyStatement({
          actions: dynamodb(actions),
          resources: [`${table.table.tableArn}/index/${indexName}`],
        }),
      );
    }
  }
}

const APPLICATION_LOG_LEVEL: Record<LogLevel, ApplicationLogLevel> = {
  debug: ApplicationLogLevel.DEBUG,
  info: ApplicationLogLevel.INFO,
  warn: ApplicationLogLevel.WARN,
  error: ApplicationLogLevel.ERROR,
};

function dynamodb(actions: readonly string[]): string[] {
  return [...new Set(actions)].map((action) => `dynamodb:${action}`);
}

/** infra/cdk/bundling.ts expressed as NodejsFunction bundling options (always local esbuild, never Docker). */
export function nodejsBundling(bundledFiles?: ApiFunctionProps['bundledFiles']): BundlingOptions {
  return {
    commandHooks: {
      beforeBundling: () => [],
      beforeInstall: () => [],
      afterBundling: (inputDir: string, outputDir: string) => [
        // The source map keeps our code only (infra/cdk/source-maps.ts), run by the Node.js running this app.
        `"${process.execPath}" "${join(inputDir, 'infra/cdk/source-maps.ts')}" "${join(outputDir, `${BUNDLE_FILE}.map`)}"`,
        // index.js is CommonJS wherever the asset is unpacked, also under a package.json that says
        // "type": "module" (local bundle mode runs cdk.out inside this repository).
        `echo '${BUNDLE_PACKAGE_JSON}' > "${join(outputDir, 'package.json')}"`,
        ...(bundledFiles
          ? [
              `mkdir -p "${join(outputDir, bundledFiles.into)}"`,
              ...bundledFiles.sources.map((source) => `cp "${join(inputDir, source)}" "${join(outputDir, bundledFiles.into)}/"`),
            ]
          : []),
      ],
    },
    format: OutputFormat.CJS,
    target: esbuildOptions.target,
    minify: esbuildOptions.minify,
    sourceMap: esbuildOptions.sourcemap,
    sourcesContent: esbuildOptions.sourcesContent,
    mainFields: [...esbuildOptions.mainFields],
    externalModules: [...esbuildOptions.external],
    define: { ...esbuildOptions.define },
    // NodejsFunction has no `supported` or `alias` option; esbuild's CLI flags say the same.
    esbuildArgs: Object.fromEntries([
      ...Object.entries(esbuildOptions.supported).map(([feature, on]) => [`--supported:${feature}`, String(on)]),
      ...Object.entries(esbuildOptions.alias).map(([from, to]) => [`--alias:${from}`, to]),
    ]),
    forceDockerBundling: false,
  };
}
