/**
 * Global setup of `npm run test:bundles`: `cdk synth` of both stages, as an operator runs it
 * before a deploy, into a temporary cloud assembly provided as `cloudAssembly`. The suites' local
 * APIs then serve the staging template and run its asset bundles; the burst suite serves each
 * stage's. The folder is removed at the end.
 */
import { STAGE_NAMES } from '../../infra/cdk/stages.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { synthesizeCloudAssembly } from '../../infra/local/cloud-assembly.ts';
import './stage-setup.ts';

export default async function setup(project: TestProject): Promise<() => void> {
  const outdir = mkdtempSync(path.join(tmpdir(), 'petstore-cdk-out-'));
  try {
    await synthesizeCloudAssembly(STAGE_NAMES, outdir);
  } catch (error) {
    rmSync(outdir, { recursive: true, force: true });
    throw error;
  }
  project.provide('cloudAssembly', outdir);
  return () => rmSync(outdir, { recursive: true, force: true });
}
