/** The machine the benchmark ran on, for BENCHMARKS.md. */
import os from 'node:os';

export interface Machine {
  readonly cpuModel: string;
  readonly cores: number;
  readonly memoryGiB: number;
  readonly node: string;
  readonly platform: string;
}

export function machine(): Machine {
  return {
    cpuModel: os.cpus()[0]?.model.trim() || 'unknown',
    cores: os.availableParallelism(),
    memoryGiB: Math.round((os.totalmem() / 1024 ** 3) * 10) / 10,
    node: process.version,
    platform: `${os.type()} ${os.release()} ${os.arch()}`,
  };
}
