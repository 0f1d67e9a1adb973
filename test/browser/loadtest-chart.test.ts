/**
 * The load test's chart in a real browser (Debian's Chromium with playwright-core, as the reference
 * page's test): docs/loadtest-example.svg, drawn from docs/loadtest-example.json, opens from a file
 * with no request but itself and no error, and shows throughput by outcome, each outcome's p99, the
 * SLO and the phases.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chartSvg } from '../../infra/cli/loadtest/chart.ts';
import type { ResultJson } from '../../infra/cli/loadtest/report.ts';
import { REPO_ROOT } from '../../infra/local/cloud-assembly.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const SVG = path.join(REPO_ROOT, 'docs/loadtest-example.svg');
const json = JSON.parse(readFileSync(path.join(REPO_ROOT, 'docs/loadtest-example.json'), 'utf8')) as ResultJson;
let browser: Browser;

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`No Chromium at ${CHROMIUM}: apt-get install chromium (or set CHROMIUM_PATH)`);
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
});

afterAll(async () => {
  await browser?.close();
});

describe('the load-test chart', () => {
  it('is the chart of its result (rewritten by the journey test with UPDATE_EXAMPLE=1)', () => {
    expect(readFileSync(SVG, 'utf8')).toBe(chartSvg(json));
  });

  it('renders from a file alone: throughput by outcome, p99 by outcome, the SLO, the phases', async () => {
    const page = await browser.newPage({ viewport: { width: 1000, height: 600 } });
    const requests: string[] = [];
    const errors: string[] = [];
    page.on('request', (request) => requests.push(request.url()));
    page.on('console', (message) => (message.type() === 'error' ? errors.push(message.text()) : undefined));
    await page.goto(pathToFileURL(SVG).href);
    expect(requests).toEqual([pathToFileURL(SVG).href]);
    expect(errors).toEqual([]);

    const box = await page.locator('svg').boundingBox();
    expect(box).toMatchObject({ width: 960, height: 570 });
    const outcomes = Object.keys(json.measured.outcomes);
    expect(await page.locator('.legend text').allTextContents()).toEqual(expect.arrayContaining(outcomes));
    // One bar per second and outcome answered that second, each as tall as its count.
    const bars = json.seconds.reduce((sum, s) => sum + Object.keys(s.outcomes).length, 0);
    expect(await page.locator('.throughput rect').count()).toBe(bars);
    for (const o of outcomes) expect(await page.locator(`polyline.p99[data-outcome="${o}"]`).count()).toBe(1);
    expect(await page.locator('line.slo').count()).toBe(1);
    const labels = (await page.locator('text').allTextContents()).join('\n');
    for (const phase of json.phases) expect(labels).toContain(phase.name);
    expect(labels).toContain(`the SLO (${json.slo.p99Ms} ms)`);
    // Drawn, not blank: the bars' colours are on the screen.
    const shot = await page.screenshot();
    expect(shot.length).toBeGreaterThan(10_000);
    await page.close();
  });
});
