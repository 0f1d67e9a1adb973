/**
 * A stage's REST API ready to serve, in one of local mode's two modes: the same template-driven
 * gateway either way; only the code that answers an AWS_PROXY integration differs.
 */
import { ENV, timeoutScale } from '#lib/config.ts';
import { GATEWAY_MAX_BODY_BYTES } from '#lib/http/gateway-errors.ts';
import { reconfigure } from '#lib/services.ts';
import type { FunctionId } from '#lib/operations.ts';
import type { StageName } from '../cdk/stages.ts';
import { cachedStageTemplate, localTableRefs, readAssemblyStage } from './cloud-assembly.ts';
import { type FunctionInvoker, LocalRestApi } from './gateway/rest-api.ts';
import { type CfnTemplate, type RestApiDefinition, readRestApi } from './gateway/template.ts';
import { BundleFunctions } from './lambda/bundle-functions.ts';
import { withReservedConcurrency } from './lambda/reserved-concurrency.ts';
import { loadSourceHandlers, type ProxyHandler, sourceInvoker, sourceModuleOf } from './lambda/source-functions.ts';

export type { ProxyHandler };

/** Handlers by function id (lib/operations.ts). */
export type SourceHandlers = Readonly<Partial<Record<FunctionId, ProxyHandler>>>;

export interface StageApi {
  readonly api: LocalRestApi;
  close(): Promise<void>;
}

export interface SourceStageOptions {
  readonly stage?: StageName;
  /** The stage's template, when already synthesized (the test suites synthesize it once). */
  readonly template?: CfnTemplate;
  /**
   * Handlers to use instead of the sources, by the function id of their operation's descriptor
   * (`list-pets`, lib/operations/); the others are imported from `functions/`.
   */
  readonly handlers?: SourceHandlers;
  /** Apply the stage's throttling; off by default, so load tests measure the service. */
  readonly throttling?: boolean;
  readonly edgeClock?: () => number; // The automatic blocks' clock, in ms (a test may run it faster).
}

/** A function's handler, from its source module under `functions/`. */
async function importHandler(module: string): Promise<ProxyHandler> {
  return ((await import(`../../functions/${module}.ts`)) as { handler: ProxyHandler }).handler;
}

/** Source mode: the stage synthesized (in a child process, or from the cache); the handler sources answer, in this process. */
export async function sourceStageApi(options: SourceStageOptions = {}): Promise<StageApi> {
  const definition = readRestApi(options.template ?? (await cachedStageTemplate(options.stage ?? 'staging')));
  applyTemplateEnvironment(definition);
  const modules = [...new Set([...definition.functions.values()].map((fn) => sourceModuleOf(fn, definition)))];
  const handlers = await loadSourceHandlers(modules, importHandler, options.handlers);
  return {
    api: limitedApi(definition, sourceInvoker(definition, handlers), options.throttling ?? false, options.edgeClock),
    close: async () => undefined,
  };
}

/**
 * Source mode's functions share this process's environment: each variable the template gives them
 * as a plain value (log level, key cache, allowed origins) is set here unless the shell set it.
 */
function applyTemplateEnvironment(definition: RestApiDefinition): void {
  const unset: Record<string, string> = {};
  for (const fn of definition.functions.values()) {
    for (const [name, value] of Object.entries(fn.environment)) {
      if (typeof value === 'string' && name !== 'NODE_OPTIONS' && process.env[name] === undefined) unset[name] ??= value;
    }
  }
  reconfigure(unset);
}

export interface BundleStageOptions {
  /** A cloud assembly folder, as `cdk synth` writes it. */
  readonly cloudAssembly: string;
  readonly stage?: StageName;
  /** The local store the functions use. */
  readonly dynamodbEndpoint: string;
  /** Local physical table names by table logical name (infra/local/create-tables.ts). */
  readonly tableNames: Readonly<Record<string, string>>;
  /** Apply the stage's throttling; on by default, as deployed. */
  readonly throttling?: boolean;
  /** Where the functions' output goes; default this process's stdout. */
  readonly onFunctionOutput?: (chunk: string) => void;
}

/** Bundle mode: the stage of a cloud assembly; each function runs from its asset bundle. */
export function bundleStageApi(options: BundleStageOptions): StageApi {
  const { template, assetDirsByKey } = readAssemblyStage(options.cloudAssembly, options.stage ?? 'staging');
  const definition = readRestApi(template);
  const assetDirs = new Map<string, string>();
  for (const [id, fn] of definition.functions) {
    const dir = fn.codeKey === undefined ? undefined : assetDirsByKey.get(fn.codeKey);
    if (dir) assetDirs.set(id, dir);
  }
  const tables = localTableRefs(definition, options.tableNames);
  const functions = new BundleFunctions({
    assetDirs,
    resolveRef: (id) => tables.get(id),
    extraEnvironment: {
      [ENV.dynamodbEndpoint]: options.dynamodbEndpoint,
      [ENV.timeoutScale]: String(timeoutScale()),
      AWS_REGION: 'us-east-1',
      AWS_DEFAULT_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: 'local',
      AWS_SECRET_ACCESS_KEY: 'local',
    },
    ...(options.onFunctionOutput ? { onOutput: options.onFunctionOutput } : {}),
  });
  return {
    api: limitedApi(definition, functions.invoke, options.throttling ?? true),
    close: () => functions.close(),
  };
}

/** The gateway over the functions, with the stage's limits on or off: the web ACL, the methods' throttles and the reservations. */
function limitedApi(definition: RestApiDefinition, invoke: FunctionInvoker, limits: boolean, edgeClock?: () => number): LocalRestApi {
  return new LocalRestApi(definition, limits ? withReservedConcurrency(invoke) : invoke, {
    throttling: limits,
    ...(edgeClock ? { edgeClock } : {}),
    maxBodyBytes: GATEWAY_MAX_BODY_BYTES,
  });
}
