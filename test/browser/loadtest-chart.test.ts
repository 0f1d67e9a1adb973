/**
 * The load test's HTML report in a real browser (Debian's Chromium with playwright-core, as the
 * reference page's test): docs/loadtest-example.html, drawn from docs/loadtest-example.json, opens
 * from a file with no request but itself and no error, and shows requests by outcome with the
 * planned, sent and admitted rates and the model's limits, p50/p95/p99 over time broken where a
 * second has no answer, the SLO, the phases and the report's tables.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportHtml } from '../../infra/cli/loadtest/chart.ts';
import type { ResultJson } from '../../infra/cli/loadtest/report.ts';
import { REPO_ROOT } from '../../infra/local/cloud-assembly.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const HTML = path.join(REPO_ROOT, 'docs/loadtest-example.html');
const json = JSON.parse(readFileSync(path.join(REPO_ROOT, 'docs/loadtest-example.json'), 'utf8')) as ResultJson;
let browser: Browser;

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`No Chromium at ${CHROMIUM}: apt-get install chromium (or set CHROMIUM_PATH)`);
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
});

afterAll(async () => {
  await browser?.close();
});

describe('the load-test report', () => {
  it('is the report of its result (rewritten by the journey test with UPDATE_EXAMPLE=1)', () => {
    expect(readFileSync(HTML, 'utf8')).toBe(reportHtml(json));
  });

  it('renders from a file alone: the rates, the limits, the percentiles over time, the SLO, the phases, the tables', async () => {
    const page = await browser.newPage({ viewport: { width: 1000, height: 1400 } });
    const requests: string[] = [];
    const errors: string[] = [];
    page.on('request', (request) => requests.push(request.url()));
    page.on('console', (message) => (message.type() === 'error' ? errors.push(message.text()) : undefined));
    await page.goto(pathToFileURL(HTML).href);
    expect(requests).toEqual([pathToFileURL(HTML).href]);
    expect(errors).toEqual([]);

    expect(await page.locator('svg').boundingBox()).toMatchObject({ width: 960, height: 570 });
    const outcomes = Object.keys(json.measured.outcomes);
    expect(await page.locator('.legend text').allTextContents()).toEqual(
      expect.arrayContaining([...outcomes, 'sent', 'admitted', 'p50', 'p95', 'p99']),
    );
    // One bar per second and outcome answered that second.
    const bars = json.seconds.reduce((sum, s) => sum + Object.keys(s.outcomes).length, 0);
    expect(await page.locator('.throughput rect').count()).toBe(bars);
    for (const name of ['planned', 'sent', 'admitted']) expect(await page.locator(`path.rate.${name}`).count()).toBe(1);
    const limits = new Set(Object.values(json.model?.methods ?? {}).map((m) => m.rateLimit));
    expect(await page.locator('line.limit').count()).toBe(limits.size);
    // Each percentile one path, a new segment after every second without answers: no line across empty seconds.
    for (const q of ['p50', 'p95', 'p99'] as const) {
      const runs = json.seconds.filter((s, i) => s[q] != null && json.seconds[i - 1]?.[q] == null).length;
      const d = (await page.locator(`path.latency.${q}`).getAttribute('d')) ?? '';
      expect(d.match(/M/g)?.length ?? 0, q).toBe(runs);
    }
    expect(await page.locator('line.slo').count()).toBe(1);
    const labels = (await page.locator('svg text').allTextContents()).join('\n');
    for (const phase of json.phases) expect(labels).toContain(phase.name);
    const report = (await page.locator('pre.report').textContent()) ?? '';
    expect(report).toMatch(/^By layer/m);
    expect(report).toMatch(/^Checks \(measured requests\)/m);
    // Drawn, not blank.
    expect((await page.screenshot()).length).toBeGreaterThan(10_000);
    await page.close();
  });
});
