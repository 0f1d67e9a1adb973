/**
 * The API reference page (GET /v1/docs) in a real browser: Debian's Chromium, driven by
 * playwright-core, against local mode serving the staging template (`npm run test:browser`; .ci/run
 * installs the `chromium` package when it is missing). The page must load with no console error
 * and no request to another origin, under its Content-Security-Policy with nothing refused, show every operation, getPet deprecated with its sunset,
 * and the error codes, and let a reader authorize with a key, create a pet and list it.
 * UPDATE_SCREENSHOT=1 rewrites docs/api-reference.png, the screenshot the README shows.
 */
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateApiKey } from '#lib/auth/api-keys.ts';
import { operations } from '#lib/operations.ts';
import { REPO_ROOT } from '../../infra/local/cloud-assembly.ts';
import { type LocalStack, startLocalStack } from '../../infra/local/local-stack.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

let stack: LocalStack;
let browser: Browser;
let page: Page;
let pagePolicy: string | undefined;
const apiKey = generateApiKey();
const consoleErrors: string[] = [];
const foreignRequests: string[] = [];
const scratch = mkdtempSync(path.join(tmpdir(), 'petstore-browser-'));

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`No Chromium at ${CHROMIUM}: apt-get install chromium (or set CHROMIUM_PATH)`);
  stack = await startLocalStack({ port: 0, dataDir: ':memory:', apiKey });
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
  const origin = new URL(stack.url).origin;
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
  page.on('pageerror', (error) => consoleErrors.push(String(error)));
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.protocol !== 'data:' && url.origin !== origin) foreignRequests.push(request.url());
  });
  // Whatever the policy refuses, as the page itself sees it.
  await page.addInitScript({
    content:
      "window.refused = []; document.addEventListener('securitypolicyviolation', (e) => window.refused.push(e.effectiveDirective + ' ' + e.blockedURI));",
  });
  const response = await page.goto(`${stack.url}/docs`);
  pagePolicy = (await response?.headerValue('content-security-policy')) ?? undefined;
  await page.locator('.opblock').first().waitFor();
});

afterAll(async () => {
  await browser?.close();
  await stack?.close();
  rmSync(scratch, { recursive: true, force: true });
});

const operation = (operationId: string) => page.locator(`#operations-pets-${operationId}`);

async function execute(operationId: string, body?: string): Promise<{ status: string; text: string }> {
  const op = operation(operationId);
  if (!(await op.locator('.try-out__btn').isVisible())) await op.locator('.opblock-summary').first().click();
  await op.locator('.try-out__btn').click();
  if (body !== undefined) await op.locator('textarea.body-param__text').fill(body);
  await op.locator('button.execute').click();
  // The live response's row, not the table's header row (which reads "Code").
  const row = op.locator('.live-responses-table tr.response').first();
  await row.waitFor();
  return {
    status: ((await row.locator('.response-col_status').textContent()) ?? '').trim(),
    text: (await row.locator('.response-col_description').textContent()) ?? '',
  };
}

describe('the API reference page', () => {
  it('lists every operation, marks getPet deprecated with its sunset, and shows the error codes', async () => {
    for (const { operationId } of operations) await expect(operation(operationId).count()).resolves.toBe(1);
    await expect(operation('getPet').getAttribute('class')).resolves.toContain('opblock-deprecated');
    await operation('getPet').locator('.opblock-summary').first().click();
    // The operation renders its body once expanded.
    await expect.poll(() => operation('getPet').textContent()).toContain('Thu, 05 Dec 2030');
    await expect.poll(() => operation('getPet').textContent()).toContain('not_found');
    await expect(page.locator('.models').textContent()).resolves.toContain('ErrorCode');
  });

  it('lets a reader paste an API key, create a pet and list it, against the stage it came from', async () => {
    await page.locator('button.authorize').first().click();
    await page.locator('.modal-ux input').first().fill(apiKey);
    await page.locator('.modal-ux button.modal-btn.auth').first().click();
    await page.locator('.modal-ux button.btn-done, .modal-ux .close-modal').first().click();

    const name = `Browser ${Date.now()}`;
    const created = await execute('createPet', JSON.stringify({ name, categoryId: 1, status: 'available' }));
    expect(created.status, created.text).toBe('201');
    const listed = await execute('listPets');
    expect(listed.status, listed.text).toBe('200');
    expect(listed.text).toContain(name);
  });

  it('loads with no console error and no request to another origin', async () => {
    expect(consoleErrors).toEqual([]);
    expect(foreignRequests).toEqual([]);
    expect(pagePolicy).toContain("script-src 'self'");
    await expect(page.evaluate('window.refused')).resolves.toEqual([]);
    const file = process.env.UPDATE_SCREENSHOT === '1' ? path.join(REPO_ROOT, 'docs/api-reference.png') : path.join(scratch, 'page.png');
    // The top of the page: title, servers, Authorize and the operations (no key on screen).
    await page.mouse.wheel(0, -100_000);
    await page.screenshot({ path: file, fullPage: false });
    expect(statSync(file).size).toBeGreaterThan(10_000);
  });
});
