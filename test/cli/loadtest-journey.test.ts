/**
 * docs/performance.md "Load testing" as a load tester walks it, on one machine: its local-mode block,
 * command by command, against local mode serving the staging template with this machine declared as
 * a load-test source. `npm run synth -- -c …` is the template synthesized with that context value;
 * `npm run start:synth -- --no-synth` the local API serving it with the stage's throttling (from the
 * handler sources). The ramp is shortened unless UPDATE_EXAMPLE=1, which runs it as written and
 * rewrites docs/loadtest-example.{svg,json,txt}, the chart and report the section shows.
 */
import { execFile } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generateApiKey } from '#lib/auth/api-keys.ts';
import type { ResultJson } from '../../infra/cli/loadtest/report.ts';
import { REPO_ROOT, synthesizeStageTemplate } from '../../infra/local/cloud-assembly.ts';
import type { CfnTemplate } from '../../infra/local/gateway/template.ts';
import { type LocalStack, startLocalStack } from '../../infra/local/local-stack.ts';

const UPDATE = process.env.UPDATE_EXAMPLE === '1';
const doc = readFileSync(path.join(REPO_ROOT, 'docs/performance.md'), 'utf8');
const section = doc.slice(doc.indexOf('## Load testing'), doc.indexOf('\n## ', doc.indexOf('## Load testing') + 1));
const local = [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1] ?? '').find((block) => block.includes('127.0.0.1:3000'));
const commands = (local ?? '')
  .replaceAll('\\\n', ' ')
  .split('\n')
  .map((line) =>
    line
      .replace(/\s+#.*$/, '')
      .trim()
      .split(/\s+/),
  )
  .filter((words) => words[0] === 'npm');
const scripts = (JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
const scratch = mkdtempSync(path.join(tmpdir(), 'loadtest-journey-'));
const apiKey = generateApiKey();
let stack: LocalStack | undefined;

afterAll(async () => {
  await stack?.close();
  rmSync(scratch, { recursive: true, force: true });
});

/** `npm run NAME -- ARGS` as its script runs it (`node FILE`), in its own process. */
function npmRun(words: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const [, , name = '', , ...args] = words;
  const file = /^node (\S+)$/.exec(scripts[name] ?? '')?.[1];
  if (!file) throw new Error(`npm run ${name} is not a node script`);
  return new Promise((resolve) => {
    const env = { ...process.env, PETSTORE_API_KEY: apiKey, PETSTORE_DATA_DIR: scratch };
    execFile(process.execPath, [path.join(REPO_ROOT, file), ...args], { timeout: 240_000, env, cwd: scratch }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr });
    });
  });
}

describe('the load-testing journey of docs/performance.md, in local mode', () => {
  it('declares this machine, ramps with the layer table and the model, and cleans up after itself', async () => {
    expect(commands.map((w) => w.slice(0, 3).join(' '))).toEqual([
      'npm run synth',
      'npm run start:synth',
      'npm run loadtest',
      'npm run loadtest:cleanup',
      'npm run loadtest:cleanup',
      'npm run loadtest',
    ]);
    let template: CfnTemplate | undefined;
    let runId = '';
    let created = 0;
    for (const words of commands) {
      const line = words.join(' ');
      if (words[2] === 'synth') {
        const [key, value] = (words[words.indexOf('-c') + 1] ?? '').split('=');
        template = await synthesizeStageTemplate('staging', { [key as string]: value });
      } else if (words[2] === 'start:synth') {
        stack = await startLocalStack({ port: 0, dataDir: scratch, template, throttling: true, apiKey });
      } else {
        const at = (flag: string, value: string) => words.splice(words.indexOf(flag) + 1, 1, value);
        at('--base-url', stack?.url as string);
        if (words.includes('--artillery')) at('--artillery', path.join(scratch, 'loadtest.json'));
        else if (words[2] === 'loadtest' && !UPDATE) at('--warmup', '1') && at('--duration', '6');
        const run = await npmRun(words.map((w) => (w === '<runId>' ? runId : w)));
        expect(run.code, `${line}\n${run.stdout}${run.stderr}`).toBe(0);
        if (words.includes('--artillery')) {
          expect(JSON.parse(readFileSync(path.join(scratch, 'loadtest.json'), 'utf8')).config.phases).toHaveLength(6);
        } else if (words[2] === 'loadtest') {
          runId = /load test ([0-9a-f]{8})/.exec(run.stdout)?.[1] as string;
          const json = JSON.parse(readFileSync(path.join(scratch, '.loadtest', `${runId}.json`), 'utf8')) as ResultJson;
          created = json.createdPets;
          // This machine is declared: WAF's per-address and per-key rules count none of it.
          expect(json.seconds.some((s) => s.outcomes['edge-429'])).toBe(false);
          expect(json.phases.map((p) => p.name)).toEqual(['warm-up', ...[1, 2, 3, 4, 5, 6].map((n) => `step ${n}`)]);
          expect(run.stdout).toMatch(/^By layer/m);
          expect(run.stdout).toMatch(/^Against the stage's limits/m);
          expect(run.stdout).toMatch(/^list\s+GET \/pets\s+\d+\s+\d+\s+\d+/m);
          expect(run.stdout).toMatch(/p99 (crosses|stayed within) the SLO/);
          if (UPDATE) {
            copyFileSync(path.join(scratch, '.loadtest', `${runId}.svg`), path.join(REPO_ROOT, 'docs/loadtest-example.svg'));
            copyFileSync(path.join(scratch, '.loadtest', `${runId}.json`), path.join(REPO_ROOT, 'docs/loadtest-example.json'));
            writeFileSync(path.join(REPO_ROOT, 'docs/loadtest-example.txt'), run.stdout);
          }
        } else if (words.includes('--delete')) {
          expect(run.stdout).toMatch(new RegExp(`^Deleted (\\d+) pets of run ${runId}\\.$`, 'm'));
          expect((await npmRun(['npm', 'run', 'loadtest:cleanup', '--', runId])).stdout).toContain(`0 pets of run ${runId}`);
        } else {
          const found = Number(new RegExp(`^(\\d+) pets of run ${runId} in the running local API`, 'm').exec(run.stdout)?.[1]);
          expect(found).toBeGreaterThanOrEqual(created);
          expect(run.stdout).toContain('dry run: nothing deleted');
        }
      }
    }
  });
});
