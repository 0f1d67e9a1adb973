/**
 * Every command of ours in package.json's scripts (`node <file>.ts …`) answers `--help` with its
 * usage on stdout and exit 0, and starts no work: no server, no synth, no benchmark.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const scripts = (JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8')) as { scripts: Record<string, string> }).scripts;
// Ours are TypeScript; `typecheck` runs the generators' package's script (JavaScript) before tsc.
const ours = Object.entries(scripts).filter(([, command]) => /^node \S+\.ts\b/.test(command));

describe('--help', () => {
  it('covers the commands the README names', () => {
    expect(ours.map(([name]) => name)).toEqual(
      expect.arrayContaining(['start', 'start:synth', 'keys', 'lint:cfn', 'openapi', 'loadtest', 'bench']),
    );
  });

  it.each(ours)('npm run %s -- --help: usage on stdout, exit 0', async (_name, command) => {
    // Each script is `node FILE [FLAG…] [ARGUMENT…]`: npm appends `-- --help` after them.
    expect(command).toMatch(/^node \S+\.ts(?: --[a-z-]+| [a-z]+)*$/);
    const [, ...args] = command.split(' ');
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [...args, '--help'], { cwd: ROOT, timeout: 120_000 });
    expect(stdout).toMatch(/^usage: /i);
    expect(stderr).toBe('');
  });
});
