// One stack per stage plus PetStore-account, which each depends on; environment-agnostic so synth needs no credentials (docs/operators.md).
import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { ACCOUNT_STACK_NAME, PetStoreAccountStack } from './account-stack.ts';
import { PetStoreStack } from './stage-stack.ts';
import { capacityProblems } from './capacity.ts';
import { STAGE_NAMES, type StageName, type StageSettings, readStageSettings, stackName } from './stages.ts';

export interface BuildAppOptions {
  readonly outdir?: string;
  readonly context?: Record<string, unknown>;
}

export interface PetStoreApp {
  readonly app: App;
  readonly stacks: Readonly<Record<StageName, PetStoreStack>>;
  readonly accounts: Readonly<Record<StageName, PetStoreAccountStack>>;
}

export function buildApp(options: BuildAppOptions = {}): PetStoreApp {
  const app = new App({
    ...(options.outdir ? { outdir: options.outdir } : {}),
    ...(options.context ? { context: options.context } : {}),
  });
  // cdk-nag 3 is a validation plugin: an unacknowledged error fails the synth.
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));

  const settings = STAGE_NAMES.map((stage) => readStageSettings(stage, (key) => app.node.tryGetContext(key)));
  checkCapacity(settings);
  const stacks = {} as Record<StageName, PetStoreStack>;
  const accounts = {} as Record<StageName, PetStoreAccountStack>;
  for (const stage of settings) {
    stacks[stage.stage] = new PetStoreStack(app, stackName(stage.stage), { settings: stage });
    // The logging role must be in the stage's own account and region: a pinned stage gets its own.
    const id = stage.env ? `${ACCOUNT_STACK_NAME}-${stage.env.account}-${stage.env.region}` : ACCOUNT_STACK_NAME;
    const existing = app.node.tryFindChild(id);
    accounts[stage.stage] =
      existing instanceof PetStoreAccountStack
        ? existing
        : new PetStoreAccountStack(app, id, { stackName: ACCOUNT_STACK_NAME, ...(stage.env ? { env: stage.env } : {}) });
    stacks[stage.stage].addStackDependency(accounts[stage.stage], 'API Gateway logs through the CloudWatch role it sets');
  }
  return { app, stacks, accounts };
}

// Over every stage at once: stages that may share an account share its concurrency.
export function checkCapacity(stages: readonly StageSettings[]): void {
  const problems = capacityProblems(stages);
  if (problems.length > 0) throw new Error(problems.join('\n'));
}

if (import.meta.main) {
  buildApp();
}
