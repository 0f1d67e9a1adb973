import { generateApiKey } from '#lib/auth/api-keys.ts';
import { synthesizeStageTemplate } from './local/cloud-assembly.ts';
import { startLocalStack } from './local/local-stack.ts';
import { getFrom, paced } from '../test/support/from-address.ts';
const template = await synthesizeStageTemplate('staging');
const stack = await startLocalStack({ port: 0, dataDir: ':memory:', template, throttling: true });
const url = `${stack.url}/pets?limit=100&status=available`;
const errors: Record<string, number> = {};
const t0 = performance.now();
const out = await Promise.all(
  Array.from({ length: 20 }, (_, i) =>
    paced(
      6.5 * 8,
      6.5,
      () =>
        getFrom(`127.0.3.${i + 1}`, url, {
          Authorization: `Bearer ${generateApiKey()}`,
          ...(process.argv[2] ? { Connection: 'close' } : {}),
        }).catch((e) => {
          const k = `${e.code}@${Math.round((performance.now() - t0) / 1000)}`;
          errors[k] = (errors[k] ?? 0) + 1;
          return new Response(null, { status: 599 });
        }),
      { jitter: true },
    ),
  ),
);
const counts: Record<string, number> = {};
for (const o of out.flat()) counts[String(o)] = (counts[String(o)] ?? 0) + 1;
console.log(counts, errors);
await stack.close();
