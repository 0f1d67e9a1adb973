/**
 * `npm run verify -- --stage NAME`: after a deploy, with the account's credentials, checks each
 * claim the docs make about the deployed stage that only AWS can show (stage-checks.ts) and prints
 * each as held, broken or unmeasurable, with the reason; exit 1 when any is broken.
 */
import { APIGatewayClient, GetStageCommand } from '@aws-sdk/client-api-gateway';
import { CloudWatchClient, DescribeAlarmsCommand } from '@aws-sdk/client-cloudwatch';
import { CloudWatchLogsClient, FilterLogEventsCommand } from '@aws-sdk/client-cloudwatch-logs';
import { CodeDeployClient, GetDeploymentGroupCommand } from '@aws-sdk/client-codedeploy';
import { GetLoggingConfigurationCommand, GetWebACLForResourceCommand, WAFV2Client } from '@aws-sdk/client-wafv2';
import { generateApiKey, newApiKeyRecord } from '#lib/auth/api-keys.ts';
import { operations } from '#lib/operations.ts';
import { API_BASE_PATH } from '#lib/routes.ts';
import { DynamoDbApiKeyStore } from '#lib/store/dynamodb-api-key-store.ts';
import { DOCS_THROTTLED_METHODS, stageCapacity } from '../cdk/capacity.ts';
import { CANARY_DEPLOYMENT } from '../cdk/constructs/monitoring.ts';
import { isStageName, OUTPUT_IDS, readStageSettings, STAGE_NAMES, type StageSettings, stackName } from '../cdk/stages.ts';
import { parseCommandLine, usageMistake } from './command-line.ts';
import { contextOf } from './deploy.ts';
import { type Account, accountChecks, answerChecks, type Expected, oldTlsRefused, runChecks } from './stage-checks.ts';
import { openTable, stackOutput } from './stage-tables.ts';

const USAGE = `Usage: npm run verify -- --stage NAME [--region R] [--log-wait SECONDS] [--from-blocked-source] [-c KEY=VALUE ...]
Checks the deployed stage against the docs and the capacity model (-c: the settings it was deployed with).
`;

/** The stage's resources, read through the SDK (credentials and region as for the AWS CLI). */
function account(stack: string, stage: string, restApiId: string): Account {
  const waf = new WAFV2Client({});
  const logging = async () => {
    const region = await waf.config.region();
    const stageArn = `arn:aws:apigateway:${region}::/restapis/${restApiId}/stages/${stage}`;
    const { WebACL } = await waf.send(new GetWebACLForResourceCommand({ ResourceArn: stageArn }));
    if (!WebACL?.ARN) return undefined;
    const { LoggingConfiguration: config } = await waf.send(new GetLoggingConfigurationCommand({ ResourceArn: WebACL.ARN }));
    return { acl: WebACL, config };
  };
  return {
    methodSettings: async () => {
      const { methodSettings = {} } = await new APIGatewayClient({}).send(new GetStageCommand({ restApiId, stageName: stage }));
      return Object.fromEntries(Object.entries(methodSettings).map(([key, v]) => [key.replaceAll('~1', '/').replace(/^\//, ''), v]));
    },
    webAclLimits: async () => (await logging())?.acl.Rules?.flatMap((rule) => rule.Statement?.RateBasedStatement?.Limit ?? []),
    redactedHeaders: async () => (await logging())?.config?.RedactedFields?.flatMap((field) => field.SingleHeader?.Name ?? []),
    wafLogRecords: async (text) => {
      const group = (await logging())?.config?.LogDestinationConfigs?.[0]?.split(':log-group:')[1]?.replace(/:\*$/, '');
      if (!group) return [];
      const filter = { logGroupName: group, filterPattern: `"${text}"`, startTime: Date.now() - 15 * 60_000 };
      const { events = [] } = await new CloudWatchLogsClient({}).send(new FilterLogEventsCommand(filter));
      return events.map((e) => e.message ?? '');
    },
    alarms: async () => {
      const query = { AlarmNamePrefix: `${stack}-`, AlarmTypes: ['MetricAlarm' as const, 'CompositeAlarm' as const], MaxRecords: 100 };
      const { MetricAlarms = [], CompositeAlarms = [] } = await new CloudWatchClient({}).send(new DescribeAlarmsCommand(query));
      return [...MetricAlarms, ...CompositeAlarms].map((a) => ({ name: `${a.AlarmName}`, state: `${a.StateValue}` }));
    },
    deploymentGroups: async () => {
      const codeDeploy = new CodeDeployClient({});
      const group = async (name: string) => {
        const query = new GetDeploymentGroupCommand({ applicationName: stack, deploymentGroupName: name });
        const {
          alarmConfiguration: alarms,
          autoRollbackConfiguration: rollback,
          ...info
        } = (await codeDeploy.send(query)).deploymentGroupInfo ?? {};
        const rollbackOnAlarm = Boolean(rollback?.enabled && rollback.events?.includes('DEPLOYMENT_STOP_ON_ALARM'));
        return {
          name,
          config: `${info.deploymentConfigName}`,
          alarms: alarms?.enabled ? (alarms.alarms ?? []).length : 0,
          rollbackOnAlarm,
        };
      };
      return Promise.all(operations.map(({ functionId }) => group(functionId)));
    },
  };
}

export function expected(settings: StageSettings, executeApiBaseUrl: string, logWaitSeconds: number, fromBlockedSource: boolean): Expected {
  const capacity = stageCapacity(settings);
  const docs = { rateLimit: settings.docsThrottlingRateLimit, burstLimit: settings.docsThrottlingBurstLimit };
  const base = API_BASE_PATH.replace(/^\//, '');
  return {
    throttles: {
      '*/*': capacity.apiThrottle,
      ...Object.fromEntries(DOCS_THROTTLED_METHODS.map((m) => [`${base}${m.resource}/${m.method}`, docs])),
    },
    webAclLimits: settings.webAcl ? Object.values(capacity.webAcl) : undefined,
    canary: settings.production ? { config: CANARY_DEPLOYMENT.deploymentConfigName } : undefined,
    defaultEndpoint: settings.customDomain ? { url: executeApiBaseUrl, disabled: settings.disableExecuteApiEndpoint } : undefined,
    logWaitSeconds,
    fromBlockedSource,
  };
}

export async function main(argv: string[], out: (line: string) => void = (line) => process.stdout.write(`${line}\n`)): Promise<number> {
  const options = {
    stage: { type: 'string' },
    region: { type: 'string' },
    'log-wait': { type: 'string', default: '300' },
    'from-blocked-source': { type: 'boolean', default: false },
    context: { type: 'string', short: 'c', multiple: true },
    help: { type: 'boolean', short: 'h' },
  } as const;
  const { values } = parseCommandLine(USAGE, { args: argv, strict: true, options });
  const stage = values.stage ?? '';
  if (!isStageName(stage)) usageMistake(USAGE, `Give --stage ${STAGE_NAMES.join(' or ')}.`);
  const logWait = Number(values['log-wait']);
  if (!Number.isInteger(logWait) || logWait < 0) usageMistake(USAGE, '--log-wait must be a whole number of seconds.');
  const context = contextOf(argv);
  const settings = readStageSettings(stage, (key) => context[key]);
  const region = values.region ?? settings.env?.region;
  if (region) process.env.AWS_REGION = region;
  const stack = stackName(stage);
  const [baseUrl = '', executeApiBaseUrl = '', restApiId = ''] = await Promise.all(
    [OUTPUT_IDS.baseUrl, OUTPUT_IDS.executeApiBaseUrl, OUTPUT_IDS.restApiId].map((id) => stackOutput(stack, id)),
  );
  // A key of its own for the keyed answer, revoked at the end (and expiring soon if the revoke fails).
  const keys = await openTable('apiKeys', { stage });
  const store = new DynamoDbApiKeyStore(keys.client, keys.tableName);
  const key = generateApiKey();
  const record = newApiKeyRecord(key, 'verify', { now: new Date(), expiresAt: new Date(Date.now() + 15 * 60_000) });
  await store.add(record);
  try {
    const verdicts = await runChecks({
      ...answerChecks(baseUrl, key),
      ...oldTlsRefused(baseUrl),
      ...oldTlsRefused(executeApiBaseUrl),
      ...accountChecks(
        baseUrl,
        account(stack, stage, restApiId),
        expected(settings, executeApiBaseUrl, logWait, values['from-blocked-source']),
      ),
    });
    for (const v of verdicts) out(`${v.state.padEnd(12)} ${v.name}: ${v.reason}`);
    const count = (state: string) => verdicts.filter((v) => v.state === state).length;
    out(`${stage}: ${count('held')} held, ${count('broken')} broken, ${count('unmeasurable')} unmeasurable.`);
    return count('broken') > 0 ? 1 : 0;
  } finally {
    await store.revoke(record.keyId);
    await keys.close();
  }
}

if (import.meta.main) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      process.stderr.write(`verify: ${(error as Error).message}\n`);
      process.exit(1);
    },
  );
}
