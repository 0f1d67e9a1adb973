// The template local mode serves: synthesized without bundling (source mode) or `cdk synth`'s assembly (bundle mode); docs/local-mode.md.
import { fork } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { allTables } from '#lib/store/tables.ts';
import { runInGroup } from '../cli/child-processes.ts';
import { type StageName, stackName, tableNameOutputId } from '../cdk/stages.ts';
import type { CfnTemplate, RestApiDefinition } from './gateway/template.ts';

export const REPO_ROOT = path.resolve(import.meta.dirname, '../..');

const SYNTH_SCRIPT = path.join(import.meta.dirname, 'synth-stage.ts');

/**
 * In a child process: aws-cdk-lib's tens of MB of heap would otherwise stay in the serving process,
 * and a fatal error in a worker thread would end it too.
 */
export function synthesizeStageTemplate(stage: StageName, context: Record<string, unknown> = {}): Promise<CfnTemplate> {
  return new Promise((resolve, reject) => {
    const child = fork(SYNTH_SCRIPT, [JSON.stringify({ stage, context })], { execArgv: [], serialization: 'advanced' });
    let answer: { template: CfnTemplate } | { error: unknown } | undefined;
    child.once('message', (posted: typeof answer) => {
      answer = posted;
    });
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      if (answer && 'template' in answer) resolve(answer.template);
      else if (answer) reject(answer.error);
      else reject(new Error(`synthesizing stage "${stage}" failed: its process exited with ${signal ?? `code ${code}`} and no template`));
    });
  });
}

const TEMPLATE_CACHE_DIR = path.join(REPO_ROOT, 'node_modules', '.cache', 'petstore-templates');

/** Keyed by a hash of infra/, lib/, cdk.json and the lockfile; saves `npm start` about a second. */
export async function cachedStageTemplate(stage: StageName): Promise<CfnTemplate> {
  const name = `${stage}-${templateInputsHash(stage)}.json`;
  const file = path.join(TEMPLATE_CACHE_DIR, name);
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as CfnTemplate;
  } catch {}
  const template = await synthesizeStageTemplate(stage);
  mkdirSync(TEMPLATE_CACHE_DIR, { recursive: true });
  for (const old of readdirSync(TEMPLATE_CACHE_DIR)) {
    if (old.startsWith(`${stage}-`) && old !== name) rmSync(path.join(TEMPLATE_CACHE_DIR, old), { force: true });
  }
  // Written whole, then renamed: a process starting meanwhile reads all of it or nothing.
  const partial = `${file}.${process.pid}.tmp`;
  writeFileSync(partial, JSON.stringify(template));
  renameSync(partial, file);
  return template;
}

function templateInputsHash(stage: StageName): string {
  const hash = createHash('sha256').update(stage);
  const files = ['cdk.json', 'package-lock.json', ...sourceFiles('infra'), ...sourceFiles('lib')];
  for (const file of files) hash.update(`\0${file}\0`).update(readFileSync(path.join(REPO_ROOT, file)));
  return hash.digest('hex').slice(0, 16);
}

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(REPO_ROOT, dir), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => path.relative(REPO_ROOT, path.join(entry.parentPath, entry.name)))
    .sort();
}

export interface AssemblyStage {
  readonly template: CfnTemplate;
  readonly assetDirsByKey: ReadonlyMap<string, string>;
}

export function readAssemblyStage(dir: string, stage: StageName): AssemblyStage {
  const name = stackName(stage);
  const templateFile = path.join(dir, `${name}.template.json`);
  const assetsFile = path.join(dir, `${name}.assets.json`);
  if (!existsSync(templateFile) || !existsSync(assetsFile)) {
    throw new Error(`${dir} has no ${name}.template.json and ${name}.assets.json: synthesize it first (npm run synth)`);
  }
  const template = JSON.parse(readFileSync(templateFile, 'utf8')) as CfnTemplate;
  const manifest = JSON.parse(readFileSync(assetsFile, 'utf8')) as {
    files?: Record<string, { source: { path: string }; destinations: Record<string, { objectKey: string }> }>;
  };
  const assetDirsByKey = new Map<string, string>();
  for (const file of Object.values(manifest.files ?? {})) {
    for (const destination of Object.values(file.destinations))
      assetDirsByKey.set(destination.objectKey, path.resolve(dir, file.source.path));
  }
  return { template, assetDirsByKey };
}

// As an operator's synth before a deploy; its own process group, so an interrupted start stops it.
export async function synthesizeCloudAssembly(stages: StageName | readonly StageName[], outdir: string): Promise<void> {
  const cdk = path.join(REPO_ROOT, 'node_modules/.bin/cdk');
  const stacks = (typeof stages === 'string' ? [stages] : stages).map(stackName);
  const run = await runInGroup(cdk, ['synth', '--quiet', '--exclusively', '--output', outdir, ...stacks], { cwd: REPO_ROOT });
  if (run.status !== 0)
    throw new Error(`cdk synth ${stacks.join(' ')} failed (${run.status ?? run.signal}): ${run.stderr.trim().slice(-4000)}`);
}

// The template's table-name outputs (`PetsTableName` → logical id) joined with local physical names.
export function localTableRefs(api: RestApiDefinition, localNames: Readonly<Record<string, string>>): Map<string, string> {
  const refs = new Map<string, string>();
  for (const table of allTables) {
    const output = api.outputs[tableNameOutputId(table.logicalName)] as { Ref?: string } | undefined;
    const physical = localNames[table.logicalName];
    if (output?.Ref && physical) refs.set(output.Ref, physical);
  }
  return refs;
}
