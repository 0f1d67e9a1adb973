/**
 * Bundle mode's Lambda environments (infra/local/lambda/bundle-functions.ts), on small bundles
 * written here: the template's environment (a table `Ref` resolved to the local table), the memory
 * as the context's limit, the timeout as a hard stop, a fresh environment after a failure, and one
 * invocation per environment at a time.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LambdaFunctionDefinition } from '../../infra/local/gateway/template.ts';
import { BundleFunctions } from '../../infra/local/lambda/bundle-functions.ts';

let dir: string;
let functions: BundleFunctions;
let output = '';

const HANDLER = `
let invocations = 0;
const started = Date.now();
exports.handler = async (event, context) => {
  invocations += 1;
  if (event.body === 'sleep') await new Promise((resolve) => setTimeout(resolve, 5_000));
  if (event.body === 'throw') throw new Error('handler failed');
  if (event.body === 'wait') await new Promise((resolve) => setTimeout(resolve, 200));
  console.log('log line from ' + context.functionName);
  return {
    statusCode: 200,
    body: JSON.stringify({
      table: process.env.PETS_TABLE_NAME,
      level: process.env.LOG_LEVEL,
      name: process.env.AWS_LAMBDA_FUNCTION_NAME,
      endpoint: process.env.PETSTORE_DYNAMODB_ENDPOINT,
      memory: context.memoryLimitInMB,
      remaining: context.getRemainingTimeInMillis(),
      invocations,
      started,
    }),
  };
};
`;

/** Long enough for a cold start on a busy machine (local mode counts it, Lambda does not); the timeout test sets its own. */
function definition(timeoutSeconds = 60): LambdaFunctionDefinition {
  return {
    logicalId: 'ListPetsF40BAA0B',
    functionName: 'PetStore-staging-list-pets',
    handler: 'index.handler',
    memoryMb: 256,
    timeoutSeconds,
    environment: { LOG_LEVEL: 'info', PETS_TABLE_NAME: { Ref: 'TablesPetsD2B49199' } },
    codeKey: 'abc.zip',
  };
}

const event = (body: string) => ({ body }) as APIGatewayProxyEvent;
const bodyOf = (outcome: Awaited<ReturnType<BundleFunctions['invoke']>>) => {
  if (!outcome.ok) throw new Error(`invocation failed: ${outcome.reason}`);
  return JSON.parse((outcome.result as { body: string }).body) as Record<string, unknown>;
};

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'petstore-bundle-'));
  // CommonJS, as the CDK bundles the functions (index.js beside no package.json saying otherwise).
  writeFileSync(path.join(dir, 'index.js'), HANDLER);
  functions = new BundleFunctions({
    assetDirs: new Map([
      ['ListPetsF40BAA0B', dir],
      ['Other', dir],
    ]),
    resolveRef: (id) => (id === 'TablesPetsD2B49199' ? 'local_Pets' : undefined),
    extraEnvironment: { PETSTORE_DYNAMODB_ENDPOINT: 'http://127.0.0.1:1' },
    onOutput: (chunk) => (output += chunk),
  });
});

afterAll(async () => {
  await functions?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('bundle mode functions', () => {
  it("run the bundle with the template's environment, table references resolved, and its memory", async () => {
    const body = bodyOf(await functions.invoke(definition(), event(''), 'r-1'));
    expect(body).toMatchObject({
      table: 'local_Pets',
      level: 'info',
      name: 'PetStore-staging-list-pets',
      endpoint: 'http://127.0.0.1:1',
      memory: '256',
    });
    expect(body.remaining).toBeGreaterThan(500);
    await expect.poll(() => output).toContain('log line from PetStore-staging-list-pets');
  });

  it('reuse a warm environment, and start another only while one is busy', async () => {
    const first = bodyOf(await functions.invoke(definition(), event(''), 'r-2'));
    const [a, b] = await Promise.all([
      functions.invoke(definition(), event('wait'), 'r-3'),
      functions.invoke(definition(), event('wait'), 'r-4'),
    ]);
    const starts = new Set([bodyOf(a).started, bodyOf(b).started]);
    expect(starts.size).toBe(2);
    expect(starts.has(first.started)).toBe(true);
  });

  it('stop an invocation at the timeout, and replace that environment', async () => {
    const before = bodyOf(await functions.invoke(definition(), event(''), 'r-5'));
    // On a warm environment: the timeout times the invocation alone.
    const slow = await functions.invoke(definition(1), event('sleep'), 'r-6');
    expect(slow).toEqual({ ok: false, reason: 'Task timed out after 1.00 seconds' });
    const after = await Promise.all([functions.invoke(definition(), event(''), 'r-7'), functions.invoke(definition(), event(''), 'r-8')]);
    expect(after.map((o) => o.ok)).toEqual([true, true]);
    expect(before.started).toBeDefined();
  });

  it('report a function error as such, and keep the environment', async () => {
    const failed = await functions.invoke(definition(), event('throw'), 'r-9');
    expect(failed).toEqual({ ok: false, reason: 'handler failed' });
    await expect.poll(() => output).toContain('function error');
    expect((await functions.invoke(definition(), event(''), 'r-10')).ok).toBe(true);
  });

  it('refuse an environment variable local mode cannot resolve, naming it', async () => {
    const fn = { ...definition(), logicalId: 'Other', environment: { OTHER: { 'Fn::GetAtt': ['Queue', 'Arn'] } } };
    await expect(functions.invoke(fn, event(''), 'r-11')).rejects.toThrow(/cannot resolve OTHER/);
  });
});
