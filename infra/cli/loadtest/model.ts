/**
 * The limits a stage's template sets on the load test's requests: each method's token bucket (r and
 * B, which the capacity model derives: infra/cdk/capacity.ts) and the web ACL's rate rules.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { operations } from '#lib/operations.ts';
import { API_BASE_PATH } from '#lib/routes.ts';
import { type StageName, stackName } from '../../cdk/stages.ts';
import { REPO_ROOT, synthesizeStageTemplate } from '../../local/cloud-assembly.ts';
import { type CfnTemplate, readRestApi } from '../../local/gateway/template.ts';
import { throttleFor } from '../../local/gateway/throttle.ts';
import type { Operation } from './scenario.ts';

export interface StageModel {
  readonly source: string;
  readonly methods: Readonly<Record<Operation, { readonly method: string; readonly rateLimit: number; readonly burstLimit: number }>>;
  /** The web ACL's rate rules that count every request (but a declared source's): `limit` per `windowSeconds` for one key or address. */
  readonly rateRules: readonly { readonly name: string; readonly limit: number; readonly windowSeconds: number }[];
}

export async function stageModel(stage: StageName, cdkOut = path.join(REPO_ROOT, 'cdk.out')): Promise<StageModel> {
  const file = path.join(cdkOut, `${stackName(stage)}.template.json`);
  const synthesized = existsSync(file);
  const template = synthesized ? (JSON.parse(readFileSync(file, 'utf8')) as CfnTemplate) : await synthesizeStageTemplate(stage);
  const api = readRestApi(template);
  const methods = Object.fromEntries(
    operations.map(({ operationId, method, resource }) => {
      // API Gateway's account-level default where the stage sets nothing.
      const { rateLimit = 10_000, burstLimit = 5_000 } = throttleFor(api.throttling, `${API_BASE_PATH}${resource}`, method) ?? {};
      return [operationId, { method: `${method} ${resource}`, rateLimit, burstLimit }];
    }),
  ) as StageModel['methods'];
  const rateRules = (api.webAcl?.rules ?? []).flatMap((r) =>
    'rate' in r && (!r.rate.scopeDown || 'not' in r.rate.scopeDown)
      ? [{ name: r.name, limit: r.rate.limit, windowSeconds: r.rate.windowSeconds }]
      : [],
  );
  return { source: synthesized ? path.relative(process.cwd(), file) : `stage ${stage}, synthesized`, methods, rateRules };
}
