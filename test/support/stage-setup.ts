/**
 * Global setup of `npm test` and the conformance run: the staging template, synthesized once and
 * provided as `stageTemplate`, so each suite's local API routes by it without synthesizing again.
 */
import type { TestProject } from 'vitest/node';
import { synthesizeStageTemplate } from '../../infra/local/cloud-assembly.ts';
import type { CfnTemplate } from '../../infra/local/gateway/template.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    stageTemplate: CfnTemplate | undefined;
    cloudAssembly: string | undefined;
  }
}

export default async function setup(project: TestProject): Promise<void> {
  project.provide('stageTemplate', await synthesizeStageTemplate('staging'));
}
