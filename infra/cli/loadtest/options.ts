/**
 * The load test's command line: flags, defaults, the checks, and the rules about where it may send
 * requests (only the base URL given; https unless the host is this machine).
 */
import { parseArgs } from 'node:util';
import { isStageName, STAGE_NAMES } from '../../cdk/stages.ts';
import { UsageError } from '../usage-error.ts';
import { FLOWS, type Flow, type LoadTestOptions, type Mix, PET_NAME_PREFIX } from './scenario.ts';

export const DEFAULTS = {
  durationSeconds: 30,
  rate: 20,
  mix: 'browse:30,walk:10,read:15,adopt:15',
  thinkSeconds: 1,
  sloP99Ms: 1000,
  /** A fraction: 0.001 is 0.1 %. */
  sloErrorRate: 0.001,
  timeoutSeconds: 10,
  steps: 5,
  outDir: '.loadtest',
} as const;

export const HELP = `Usage: npm run loadtest -- --base-url URL --api-key KEY [options]

Virtual users arriving at a planned rate whatever the answers (Artillery, installed on first use),
each flow's requests put down to the layer that answered; checks that fail the run; a JSON result
and an HTML report in .loadtest/<runId>/. docs/performance.md "Load testing" walks through a run.

  --base-url URL       the base address, ending in /v1; only this origin and path, no redirects;
                       https unless the host is loopback (localhost, 127.x, ::1)
  --allow-insecure     allow http:// to a host that is not loopback (the key travels in clear)
  --api-key KEY        the Bearer key (default: $PETSTORE_API_KEY, which keeps it out of ps)
  --stage NAME         set what each method admitted against this stage template's limits
  --cloud-assembly DIR where --stage's template is (default: cdk.out, else synthesized)
  --duration S         seconds measured, shared by a ramp's steps (default ${DEFAULTS.durationSeconds})
  --warmup S           seconds of load first, reported apart: cold starts (default 0)
  --rate R             requests per second planned (default ${DEFAULTS.rate})
  --ramp START:END     step the rate from START to END requests per second, in --steps N (default ${DEFAULTS.steps})
  --mix FLOW:W,...     flows' weights (default ${DEFAULTS.mix}): browse lists, walk lists a
                       status and its next page, read lists then gets a pet of it, adopt creates
                       ${PET_NAME_PREFIX}<runId>-<n> then gets it (npm run loadtest:cleanup removes them)
  --think S            pause between a flow's requests (default ${DEFAULTS.thinkSeconds})
  --max-vusers N       virtual users one generator holds at once; arrivals past it are not sent
  --workers N          write the run for a fleet of N generators, each offering 1/N, and exit
                       (the key is each worker's $PETSTORE_API_KEY)
  --install-engine     install the engine (npm run loadtest:engine) and exit
  --timeout S          seconds before a request times out (default ${DEFAULTS.timeoutSeconds})
  --out DIR            where the run's folder goes (default ${DEFAULTS.outDir})
  --slo-p99-ms MS      SLO: p99 of the measured requests at most MS (default ${DEFAULTS.sloP99Ms})
  --slo-error-rate F   SLO: (5xx + network errors) / requests at most F: 0.001 or 0.1% (the default)
  --expect-4xx CODES   4xx statuses that do not fail the run, e.g. 429 (a ramp expects the gateway's 429)

Exit status: 0 checks met, 1 a check missed (too little offered, p99, errors, unexpected 4xx),
2 bad command line, 3 the API could not be used (unreachable, key refused, WAF blocking, not the
Pet Store API).
`;

/** parseArgs, with its error as a usage error. */
function readArgs(argv: readonly string[]) {
  const text = (names: readonly string[]) => Object.fromEntries(names.map((name) => [name, { type: 'string' as const }]));
  try {
    return parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        ...text(['base-url', 'api-key', 'duration', 'warmup', 'rate', 'ramp', 'steps', 'mix', 'timeout', 'think', 'max-vusers', 'workers']),
        ...text(['slo-p99-ms', 'slo-error-rate', 'expect-4xx', 'out', 'stage', 'cloud-assembly']),
        'allow-insecure': { type: 'boolean' },
        'install-engine': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    }).values;
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

export function parseOptions(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): LoadTestOptions | 'help' | 'install' {
  const values = readArgs(argv) as Record<string, string | undefined> & Record<'allow-insecure' | 'install-engine' | 'help', boolean>;
  if (values.help) return 'help';
  if (values['install-engine']) return 'install';

  if (values['base-url'] === undefined) throw new UsageError('--base-url is required.');
  const baseUrl = parseBaseUrl(values['base-url'], values['allow-insecure'] ?? false);
  const apiKey = values['api-key'] ?? env.PETSTORE_API_KEY ?? '';
  const workers = values.workers === undefined ? undefined : positiveNumber(values.workers, '--workers', 1, { integer: true, max: 1_000 });
  if (apiKey.trim() === '' && workers === undefined) throw new UsageError('--api-key (or $PETSTORE_API_KEY) is required.');
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
  if (/[\s\u0000-\u001f\u007f]/.test(apiKey)) throw new UsageError('--api-key must not contain white space or control characters.');
  const stage = values.stage;
  if (stage !== undefined && !isStageName(stage)) throw new UsageError(`--stage "${stage}": use ${STAGE_NAMES.join(' or ')}.`);
  const ramp = values.ramp === undefined ? undefined : parseRamp(values.ramp, values.steps);
  if (ramp && values.rate !== undefined) throw new UsageError('--ramp and --rate exclude each other: a ramp sets the rate of each step.');
  const maxVusers =
    values['max-vusers'] === undefined ? undefined : positiveNumber(values['max-vusers'], '--max-vusers', 1, { integer: true });

  return {
    baseUrl,
    apiKey,
    durationSeconds: positiveNumber(values.duration, '--duration', DEFAULTS.durationSeconds, { integer: true, max: 86_400, seconds: true }),
    warmupSeconds: values.warmup === '0' ? 0 : positiveNumber(values.warmup, '--warmup', 0, { integer: true, max: 3_600, seconds: true }),
    rate: positiveNumber(values.rate, '--rate', DEFAULTS.rate),
    ramp,
    mix: parseMix(values.mix ?? DEFAULTS.mix),
    thinkSeconds: values.think === '0' ? 0 : positiveNumber(values.think, '--think', DEFAULTS.thinkSeconds, { max: 60, seconds: true }),
    maxVusers,
    workers,
    timeoutSeconds: positiveNumber(values.timeout, '--timeout', DEFAULTS.timeoutSeconds, { max: 600, seconds: true }),
    slo: {
      p99Ms: positiveNumber(values['slo-p99-ms'], '--slo-p99-ms', DEFAULTS.sloP99Ms),
      errorRate: parseRate(values['slo-error-rate']),
      expected4xx: parseStatuses(values['expect-4xx']),
    },
    outDir: values.out ?? DEFAULTS.outDir,
    stage,
    cloudAssembly: values['cloud-assembly'],
  };
}

function parseRamp(text: string, steps: string | undefined): NonNullable<LoadTestOptions['ramp']> {
  const [start = '', end = '', ...rest] = text.split(':');
  if (rest.length > 0) throw new UsageError(`--ramp "${text}": give START:END requests per second, e.g. 10:100.`);
  return {
    start: positiveNumber(start, '--ramp START', 0, { integer: true }),
    end: positiveNumber(end, '--ramp END', 0, { integer: true }),
    steps: positiveNumber(steps, '--steps', DEFAULTS.steps, { integer: true, max: 1_000 }),
  };
}

/**
 * The base URL: http or https, no credentials, query or fragment; http only to loopback unless
 * allowed. Returned without a trailing slash.
 */
export function parseBaseUrl(text: string, allowInsecure: boolean): URL {
  const url = URL.parse(text);
  if (!url) throw new UsageError(`--base-url "${text}" is not a URL; give the API's base address, e.g. http://127.0.0.1:3000/v1.`);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new UsageError(`--base-url must be an http or https URL, not ${url.protocol}`);
  }
  if (url.username !== '' || url.password !== '') {
    throw new UsageError('--base-url must not contain credentials; pass the key with --api-key.');
  }
  if (url.search !== '' || url.hash !== '') {
    throw new UsageError('--base-url must not have a query string or fragment; give the base address, ending in /v1.');
  }
  if (url.protocol === 'http:' && !isLoopback(url.hostname) && !allowInsecure) {
    throw new UsageError(
      `--base-url ${url.origin} is plain http to a host that is not this machine: the API key would travel unencrypted. ` +
        'Use https, or pass --allow-insecure if you really mean it.',
    );
  }
  url.pathname = url.pathname.replace(/\/+$/, '');
  return url;
}

/** localhost, 127.0.0.0/8 and ::1 (URL.hostname keeps IPv6 addresses in brackets). */
export function isLoopback(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (host === '[::1]') return true;
  const octets = host.split('.');
  return octets.length === 4 && octets[0] === '127' && octets.every((o) => /^\d{1,3}$/.test(o) && Number(o) <= 255);
}

export function parseMix(text: string): Mix {
  const flows = Object.keys(FLOWS) as Flow[];
  const weights = Object.fromEntries(flows.map((f) => [f, 0])) as Record<Flow, number>;
  const seen = new Set<string>();
  for (const part of text.split(',')) {
    const match = /^\s*([a-z-]+)\s*:\s*(\d+(?:\.\d+)?)\s*$/.exec(part);
    if (!match) throw new UsageError(`--mix "${text}": each entry is FLOW:WEIGHT, e.g. ${DEFAULTS.mix}.`);
    const [, name = '', weight = '0'] = match;
    if (!(flows as string[]).includes(name)) throw new UsageError(`--mix: unknown flow "${name}" (known: ${flows.join(', ')}).`);
    if (seen.has(name)) throw new UsageError(`--mix: "${name}" is given twice.`);
    seen.add(name);
    weights[name as Flow] = Number(weight);
  }
  if (flows.every((f) => weights[f] === 0)) throw new UsageError('--mix: at least one weight must be above 0.');
  return weights;
}

function parseRate(text: string | undefined): number {
  if (text === undefined) return DEFAULTS.sloErrorRate;
  const percent = text.trim().endsWith('%');
  const value = Number(percent ? text.trim().slice(0, -1) : text);
  const fraction = percent ? value / 100 : value;
  if (text.trim() === '' || !Number.isFinite(fraction) || fraction < 0 || fraction > 1) {
    throw new UsageError(`--slo-error-rate "${text}" must be a fraction from 0 to 1 (0.001) or a percentage (0.1%).`);
  }
  return fraction;
}

function parseStatuses(text: string | undefined): number[] {
  if (text === undefined || text.trim() === '') return [];
  return text.split(',').map((part) => {
    const code = Number(part.trim());
    if (!Number.isInteger(code) || code < 400 || code > 499) {
      throw new UsageError(`--expect-4xx "${text}": give 4xx status codes separated by commas, e.g. 429.`);
    }
    return code;
  });
}

function positiveNumber(
  text: string | undefined,
  flag: string,
  fallback: number,
  { integer = false, max = Number.MAX_SAFE_INTEGER, seconds = false }: { integer?: boolean; max?: number; seconds?: boolean } = {},
): number {
  if (text === undefined) return fallback;
  // Durations may carry their unit: `30` or `30s`.
  const value = Number(seconds ? text.trim().replace(/s$/, '') : text);
  if (text.trim() === '' || !Number.isFinite(value) || value <= 0 || value > max || (integer && !Number.isInteger(value))) {
    throw new UsageError(`${flag} "${text}" must be a positive ${integer ? 'integer' : 'number'} of at most ${max}.`);
  }
  return value;
}
