/**
 * Worker thread of `synthesizeStageTemplate` (cloud-assembly.ts): synthesizes one stage's stack
 * and posts its template back. aws-cdk-lib and the app live in this thread's heap, which ends with
 * it, not in the process that goes on to serve requests.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import { App } from 'aws-cdk-lib';
import { PetStoreStack } from '../cdk/stage-stack.ts';
import { cdkJsonContext, readStageSettings, type StageName, stackName } from '../cdk/stages.ts';

const { stage, context } = workerData as { stage: StageName; context: Record<string, unknown> };
const outdir = mkdtempSync(path.join(tmpdir(), 'petstore-local-synth-'));
try {
  const app = new App({
    outdir,
    // Validation is `cdk synth`'s job (npm run lint:cfn, the infra tests); this only reads.
    builtinCloudFormationValidation: false,
    context: { ...cdkJsonContext(), ...context, 'aws:cdk:bundling-stacks': [] },
  });
  const settings = readStageSettings(stage, (key) => app.node.tryGetContext(key));
  new PetStoreStack(app, stackName(stage), { settings });
  parentPort?.postMessage(app.synth().getStackByName(stackName(stage)).template);
} finally {
  rmSync(outdir, { recursive: true, force: true });
}
