/** The machine the benchmark ran on, for BENCHMARKS.md. */
import { readFileSync } from 'node:fs';
import os from 'node:os';

export interface Machine {
  readonly cpuModel: string;
  readonly cores: number;
  readonly memoryGiB: number;
  readonly node: string;
  readonly platform: string;
}

export function machine(): Machine {
  const cpus = os.cpus();
  return {
    cpuModel: cpus[0]?.model.trim() || cpuModelFromProc() || 'unknown',
    cores: os.availableParallelism(),
    memoryGiB: Math.round((os.totalmem() / 1024 ** 3) * 10) / 10,
    node: process.version,
    platform: `${os.type()} ${os.release()} ${os.arch()}`,
  };
}

function cpuModelFromProc(): string | undefined {
  try {
    return /model name\s*:\s*(.+)/.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1]?.trim();
  } catch {
    return undefined;
  }
}
