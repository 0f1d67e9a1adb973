/**
 * CodeDeploy's BeforeAllowTraffic hook of one production function (stage-stack.ts): before any
 * traffic shifts, it invokes the new version with a request carrying a made-up key, which the
 * version must answer 401 in the Error shape, having looked the key up in its keys table.
 */
import { CodeDeployClient, PutLifecycleEventHookExecutionStatusCommand } from '@aws-sdk/client-codedeploy';
import { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';
import type { Context } from 'aws-lambda';
import { generateApiKey } from '#lib/auth/api-keys.ts';
import { ENV } from '#lib/config.ts';
import { describeError, log } from '#lib/log.ts';

type HookEvent = { DeploymentId: string; LifecycleEventHookExecutionId: string };

export async function handler(event: HookEvent, context: Pick<Context, 'getRemainingTimeInMillis'>): Promise<void> {
  const target = process.env[ENV.preTrafficTarget] ?? '';
  // A second left to report: a hook that never reports leaves the deployment waiting for it.
  const status = await check(target, context.getRemainingTimeInMillis() - 1_000).then(
    () => 'Succeeded' as const,
    (error: unknown) => {
      log('error', 'pre-traffic check failed', { target, ...describeError(error) });
      return 'Failed' as const;
    },
  );
  const { DeploymentId: deploymentId, LifecycleEventHookExecutionId: lifecycleEventHookExecutionId } = event;
  const report = new PutLifecycleEventHookExecutionStatusCommand({ deploymentId, lifecycleEventHookExecutionId, status });
  await new CodeDeployClient({}).send(report);
}

/** Throws unless the version answers the made-up key with the Error body's 401. */
async function check(functionName: string, requestTimeout: number): Promise<void> {
  const request = { httpMethod: 'GET', path: '/', headers: { Authorization: `Bearer ${generateApiKey()}` }, requestContext: {} };
  const lambda = new LambdaClient({ maxAttempts: 1, requestHandler: { requestTimeout, throwOnRequestTimeout: true } });
  const invoked = await lambda.send(new InvokeCommand({ FunctionName: functionName, Payload: JSON.stringify(request) }));
  const answer = JSON.parse(new TextDecoder().decode(invoked.Payload));
  if (invoked.FunctionError) throw new Error(`the version failed (${invoked.FunctionError}): ${answer?.errorMessage}`);
  const body = JSON.parse(answer?.body ?? 'null');
  if (answer?.statusCode !== 401 || body?.status !== 401 || typeof body?.code !== 'string') {
    throw new Error(`the version answered ${answer?.statusCode} ${answer?.body}, not the Error body's 401`);
  }
}
