/**
 * The demo page in a real headless Chromium (Debian's /usr/bin/chromium through playwright-core):
 * paste a text and verify, normalize a list, match a pair. Skipped only on a developer machine
 * without Chromium; in CI (CI set) a missing browser fails the test.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp } from '../api/helpers.ts';

const CHROMIUM = '/usr/bin/chromium';
const available = existsSync(CHROMIUM);
const inCi = Boolean(process.env.CI);
if (!available && !inCi) {
  console.warn(`demo-page e2e skipped: ${CHROMIUM} is missing (apt-get install -y chromium); CI never skips it`);
}

describe.skipIf(!available && !inCi)('demo page in headless Chromium', () => {
  let app: FastifyInstance;
  let base: string;
  let context: BrowserContext;
  let page: Page;
  let userDataDir: string;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    app = await testApp({ env: { HLA_SERVICE_ANON_RPM: 'unlimited' } });
    await app.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    userDataDir = mkdtempSync(path.join(tmpdir(), 'hla-demo-chromium-'));
    context = await chromium.launchPersistentContext(userDataDir, {
      executablePath: CHROMIUM,
      headless: true,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
    page = context.pages()[0] ?? (await context.newPage());
    page.on('pageerror', (error) => pageErrors.push(error.message));
    page.on('console', (message) => {
      // The 422 of the error test below is expected; any other failed load or error is not.
      if (message.type() === 'error' && !message.text().includes('status of 422')) pageErrors.push(message.text());
    });
    await page.goto(`${base}/`);
    await page.waitForSelector('body[data-ready="true"]');
  });

  afterAll(async () => {
    await context?.close();
    await app?.close();
    if (userDataDir) rmSync(userDataDir, { recursive: true, force: true });
  });

  it('shows the pinned release and the research-use disclaimer', async () => {
    await expect.poll(() => page.textContent('#release')).toBe('3.65.0');
    expect(await page.textContent('#release-alleles')).toContain('46,652');
    expect(await page.textContent('#disclaimer')).toContain('research and evaluation tool, not a medical device');
  });

  it('verifies a pasted text: tokens coloured by status, counts shown', async () => {
    await page.fill('#verify-text', 'Typed A*02:01 and HLA-B*07:02; the donor had A*02:999:01 and DRB1*15:13; group A*02:01:01G.');
    await page.click('#verify-run');
    await page.waitForSelector('#verify-result:not([hidden])');

    const marks = await page.$$eval('#verify-highlight mark', (nodes) =>
      nodes.map((node) => ({ text: node.textContent, status: (node as HTMLElement).dataset.status, color: getComputedStyle(node).backgroundColor })),
    );
    const statusOf = Object.fromEntries(marks.map((mark) => [mark.text, mark.status]));
    expect(statusOf).toMatchObject({
      'A*02:01': 'valid',
      'B*07:02': 'valid',
      'A*02:999:01': 'hallucinated',
      'DRB1*15:13': 'deleted',
      'A*02:01:01G': 'group',
    });
    const colorOf = Object.fromEntries(marks.map((mark) => [mark.status, mark.color]));
    expect(colorOf.valid).toBe('rgb(27, 127, 59)');
    expect(colorOf.hallucinated).toBe('rgb(196, 22, 28)');
    expect(new Set(Object.values(colorOf)).size).toBe(Object.keys(colorOf).length); // one colour per status

    const counts = await page.$$eval('#verify-counts li', (items) =>
      Object.fromEntries(items.map((item) => [(item as HTMLElement).dataset.status, Number(item.querySelector('strong')?.textContent)])),
    );
    expect(counts).toMatchObject({ valid: 2, group: 1, deleted: 1, hallucinated: 1, fabricated_group: 0 });
    expect(await page.textContent('#verify-clean')).toContain('Not clean');
    expect(await page.$$eval('#verify-tokens tbody tr', (rows) => rows.length)).toBe(5);
    expect(await page.textContent('#attribution')).toContain('IPD-IMGT/HLA');
  });

  it('normalizes a list', async () => {
    await page.fill('#normalize-input', 'A*0101\nCw*0702\nB*99:99');
    await page.click('#normalize-run');
    await page.waitForSelector('#normalize-result:not([hidden])');
    const rows = await page.$$eval('#normalize-rows tbody tr', (trs) => trs.map((tr) => [...tr.children].map((td) => td.textContent)));
    expect(rows).toHaveLength(3);
    expect(rows[0].slice(0, 2)).toEqual(['A*0101', 'A*01:01']);
    expect(rows[1].slice(0, 2)).toEqual(['Cw*0702', 'C*07:02']);
    expect(rows[2][1]).toBe('UNRESOLVABLE');
  });

  it('matches a pair', async () => {
    await page.selectOption('#match-framework', '8/8');
    await page.fill('#match-recipient', 'A*01:01 A*01:01 B*08:01 B*07:02 C*07:01 C*07:02 DRB1*03:01 DRB1*15:01');
    await page.fill('#match-donor', 'A*01:01, A*02:01, B*08:01, B*07:02, Cw*0701, C*07:02, DRB1*03:01, DRB1*15:01');
    await page.click('#match-run');
    await page.waitForSelector('#match-result:not([hidden])');
    expect(await page.textContent('#match-count')).toBe('7/8');
    expect(await page.textContent('#match-hvg')).toBe('1');
    expect(await page.textContent('#match-gvh')).toBe('0');
    const verdicts = await page.$$eval('#match-verdicts li', (items) =>
      Object.fromEntries(items.map((item) => [item.querySelector('.label')?.textContent, (item as HTMLElement).dataset.verdict])),
    );
    expect(verdicts).toEqual({ A: 'mismatch', B: 'match', C: 'match', DRB1: 'match' });
  });

  it('shows an API error as its detail', async () => {
    await page.fill('#match-recipient', 'A*01:01 A*01:02 A*01:03 A*01:04 A*01:05');
    await page.click('#match-run');
    await page.waitForSelector('#error:not([hidden])');
    expect(await page.textContent('#error')).toBe('422: body/recipient/A must have at most 4 items');
  });

  it('ran without script errors', () => {
    expect(pageErrors).toEqual([]);
  });
});
