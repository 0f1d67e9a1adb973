// The child of `synthesizeStageTemplate` (cloud-assembly.ts): answers over IPC, and its heap ends with it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { App } from 'aws-cdk-lib';
import { PetStoreStack } from '../cdk/stage-stack.ts';
import { cdkJsonContext, readStageSettings, type StageName, stackName } from '../cdk/stages.ts';

const { stage, context } = JSON.parse(process.argv[2] ?? '{}') as { stage: StageName; context: Record<string, unknown> };
const outdir = mkdtempSync(path.join(tmpdir(), 'petstore-local-synth-'));
let answer: { template: unknown } | { error: unknown };
try {
  const app = new App({
    outdir,
    // Validation is `cdk synth`'s job (npm run lint:cfn, the infra tests); this only reads.
    builtinCloudFormationValidation: false,
    context: { ...cdkJsonContext(), ...context, 'aws:cdk:bundling-stacks': [] },
  });
  const settings = readStageSettings(stage, (key) => app.node.tryGetContext(key));
  new PetStoreStack(app, stackName(stage), { settings });
  answer = { template: app.synth().getStackByName(stackName(stage)).template };
} catch (error) {
  answer = { error };
} finally {
  rmSync(outdir, { recursive: true, force: true });
}
process.send?.(answer, () => process.disconnect());
