import type { Context } from 'aws-lambda';
import { timeoutScale } from '#lib/config.ts';
import { MEMORY_MB, TIMEOUT_SECONDS } from '../../cdk/function-limits.ts';
import { LOCAL_STAGE } from '../gateway/proxy-event.ts';

export interface FunctionLimits {
  readonly memoryMb: number;
  readonly timeoutSeconds: number;
}

/** The deployed memory, and a deadline one timeout away (times PETSTORE_TIMEOUT_SCALE). */
export function lambdaContext(
  requestId: string,
  functionName: string,
  stream = LOCAL_STAGE,
  limits: FunctionLimits = { memoryMb: MEMORY_MB, timeoutSeconds: TIMEOUT_SECONDS },
): Context {
  const deadline = Date.now() + limits.timeoutSeconds * 1000 * timeoutScale();
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${functionName}`,
    memoryLimitInMB: String(limits.memoryMb),
    awsRequestId: requestId,
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: stream,
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}
