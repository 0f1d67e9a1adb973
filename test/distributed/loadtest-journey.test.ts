/**
 * docs/performance.md "Load testing" as a load tester walks it, on one machine: its local-mode block,
 * command by command, against local mode serving the staging template's bundles with this machine
 * declared as a load-test source. `npm run synth -- -c …` is `cdk synth` with that context value
 * (into a folder of the test's, which the run's --stage then reads with --cloud-assembly);
 * `npm run start:synth -- --no-synth` the local API serving its bundles with the stage's throttling.
 * The ramp is shortened unless UPDATE_EXAMPLE=1, which runs it as written and rewrites
 * docs/loadtest-example.{html,json,txt}, the report the section links.
 */
import { execFile } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generateApiKey } from '#lib/auth/api-keys.ts';
import type { ResultJson } from '../../infra/cli/loadtest/report.ts';
import { runInGroup } from '../../infra/cli/child-processes.ts';
import { REPO_ROOT } from '../../infra/local/cloud-assembly.ts';
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
const assembly = path.join(scratch, 'cdk.out');
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
    ]);
    let runId = '';
    let created = 0;
    for (const words of commands) {
      const line = words.join(' ');
      if (words[2] === 'synth') {
        const cdk = path.join(REPO_ROOT, 'node_modules/.bin/cdk');
        const context = ['-c', words[words.indexOf('-c') + 1] as string];
        const synth = await runInGroup(cdk, ['synth', '--quiet', '--exclusively', '--output', assembly, ...context, 'PetStore-staging'], {
          cwd: REPO_ROOT,
        });
        expect(synth.status, synth.stderr).toBe(0);
      } else if (words[2] === 'start:synth') {
        stack = await startLocalStack({
          port: 0,
          dataDir: scratch,
          cloudAssembly: assembly,
          throttling: true,
          apiKey,
          onFunctionOutput: () => {},
        });
      } else {
        const at = (flag: string, value: string) => words.splice(words.indexOf(flag) + 1, 1, value);
        at('--base-url', stack?.url as string);
        if (words[2] === 'loadtest') words.push('--cloud-assembly', assembly);
        if (words[2] === 'loadtest' && !UPDATE) at('--warmup', '2') && at('--duration', '12');
        const run = await npmRun(words.map((w) => (w === '<runId>' ? runId : w)));
        if (words[2] === 'loadtest') {
          // A busy machine may miss the p99 check; the report is whole either way.
          expect([0, 1], `${line}\n${run.stdout}${run.stderr}`).toContain(run.code);
          runId = /load test ([0-9a-f]{8})/.exec(run.stdout)?.[1] as string;
          const folder = path.join(scratch, '.loadtest', runId);
          const json = JSON.parse(readFileSync(path.join(folder, 'result.json'), 'utf8')) as ResultJson;
          created = json.createdPets;
          // This machine is declared: WAF's per-address and per-key rules count none of it.
          expect(json.seconds.some((s) => s.outcomes['edge-429'])).toBe(false);
          expect(run.stdout).toContain('This source is declared');
          expect(json.phases.map((p) => p.name)).toEqual(['warm-up', ...[1, 2, 3, 4, 5, 6].map((n) => `step ${n}`)]);
          expect(json.offered.arrivals).toBe(json.offered.planned);
          expect(run.stdout).toMatch(/^By layer/m);
          // The ramp reaches the modelled rate of the method it aims at, and meets its bucket.
          expect(run.stdout).toMatch(/^listPets\s+GET \/pets\s+50\s+100\s+\d+\s+yes/m);
          expect(run.stdout).toMatch(/p99 (crosses|stayed within) the SLO/);
          if (UPDATE) {
            copyFileSync(path.join(folder, 'report.html'), path.join(REPO_ROOT, 'docs/loadtest-example.html'));
            copyFileSync(path.join(folder, 'result.json'), path.join(REPO_ROOT, 'docs/loadtest-example.json'));
            writeFileSync(path.join(REPO_ROOT, 'docs/loadtest-example.txt'), run.stdout);
          }
          continue;
        }
        expect(run.code, `${line}\n${run.stdout}${run.stderr}`).toBe(0);
        if (words.includes('--delete')) {
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
