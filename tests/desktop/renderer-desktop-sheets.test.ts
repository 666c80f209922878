/**
 * The built renderer (out/renderer) in desktop mode in Debian's Chromium,
 * with every `window.desktop` call (session, settings, spreadsheets) answered by the REAL
 * main-process modules running in this process: the IPC handlers, the settings store (temporary
 * directory), the keychain (Secret Service), the local spreadsheet module with its worker thread,
 * and the upload client sending real bytes to a real server (startTestServer, SQLite). The one
 * thing faked is what Electron would draw: the open dialog answers the generated file's path.
 *
 * The user signs in, opens Customize Message, chooses the file ("Choose file" calls `pick`), sees
 * the parse progress, the columns mapped from the template's examples, the counts of valid,
 * invalid and repeated rows, the exact cost, sends, and sees the campaign; the server then holds
 * one message per normalised number with that row's values.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from '@playwright/test';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DESKTOP_APP_ORIGIN, SPREADSHEET_CHANNELS } from '@shared/desktop';
import { fillMessage, messages } from '@shared/messages';
import type { SpreadsheetProgress } from '@shared/spreadsheets';
import { createDesktopHandlers, registerDesktopIpc, registerSpreadsheetIpc, type SpreadsheetSenderEvent } from '../../desktop/src/main/ipc/register';
import { createLocalSpreadsheetHandlers, type OpenDialogRequest } from '../../desktop/src/main/ipc/spreadsheets';
import { createKeychainStore } from '../../desktop/src/main/keychain';
import { serveAppRequest } from '../../desktop/src/main/protocol';
import { buildContentSecurityPolicy } from '../../desktop/src/main/security';
import { createSettingsStore } from '../../desktop/src/main/settings';
import type { LocalSpreadsheets } from '../../desktop/src/main/spreadsheets';
import { buildTemplate, buildUser } from '../../server/test/factories';
import { startTestServer, type TestServer } from '../../server/test/server';
import { SheetStep } from '../e2e/pages/SheetStep';
import { CHROMIUM_ARGS, CHROMIUM_EXECUTABLE, chromiumMissingReason } from '../chromium';
import { installPreloadShim, type ShimInvokeEvent } from './preload-shim';
import { secretServiceUnavailableReason, TEST_ENTRY_OPTIONS, TEST_KEYCHAIN_SERVICE } from './secret-service';

const projectRoot = fileURLToPath(new URL('../..', import.meta.url));
const rendererDir = path.join(projectRoot, 'out', 'renderer');
const preloadFile = path.join(projectRoot, 'out', 'preload', 'index.cjs');
const m = messages.sheetScreens;
const ui = messages.sendScreens;

async function skipReason(): Promise<string | null> {
  const noBrowser = chromiumMissingReason();
  if (noBrowser) return noBrowser;
  if (!existsSync(path.join(rendererDir, 'index.html')) || !existsSync(preloadFile)) {
    return 'renderer or preload not built: run `npm run desktop:build` first';
  }
  return secretServiceUnavailableReason();
}

const unavailable = await skipReason();
if (unavailable) console.warn(`[renderer-desktop-sheets.test] skipped: ${unavailable}`);

function listen(server: Server): Promise<string> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`));
  });
}

function close(server: Server | undefined): Promise<void> {
  return new Promise((resolve) => (server ? server.close(() => resolve()) : resolve()));
}

/** Ten digits of an Indian mobile, distinct for each `index` and `run`. */
function mobile(run: number, index: number): string {
  return `9${String(run).padStart(4, '0')}${String(index).padStart(5, '0')}`;
}

/** One number written the ways people write it; every form normalises to `91` + the ten digits. */
function written(digits: string, index: number): string {
  switch (index % 3) {
    case 0:
      return `+91 ${digits.slice(0, 5)} ${digits.slice(5)}`;
    case 1:
      return `0${digits}`;
    default:
      return digits;
  }
}

interface ExpectedMessage {
  recipient: string;
  variables: Record<string, string>;
}

/** Rows of a generated customer list: `valid` numbers in mixed forms, then two invalid rows and two repeats. */
function customerRows(run: number, valid: number): { rows: string[][]; expected: ExpectedMessage[] } {
  const rows: string[][] = [];
  const expected: ExpectedMessage[] = [];
  for (let index = 0; index < valid; index += 1) {
    const digits = mobile(run, index);
    const name = `Customer ${index}`;
    const order = `ORD-${run}-${index}`;
    rows.push([name, written(digits, index), order]);
    expected.push({ recipient: `91${digits}`, variables: { '1': name, '2': order } });
  }
  rows.push(['Ravi', 'not a number', 'ORD-X1']);
  rows.push(['Meena', '12', 'ORD-X2']);
  // The same rows again, the numbers written another way: repeats (same number and values) inside
  // the file, sent once.
  rows.push(['Customer 0', `91${mobile(run, 0)}`, `ORD-${run}-0`]);
  rows.push(['Customer 1', `+91${mobile(run, 1)}`, `ORD-${run}-1`]);
  return { rows, expected };
}

function csvOf(header: string[], rows: string[][]): string {
  return [header, ...rows].map((cells) => cells.map((cell) => (/[",\r\n]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell)).join(',')).join('\r\n') + '\r\n';
}

describe(`built renderer in desktop mode, sending from a local spreadsheet${unavailable ? ` (skipped: ${unavailable})` : ''}`, () => {
  let workDir = '';
  let server: TestServer | undefined;
  let rendererServer: Server | undefined;
  let rendererOrigin = '';
  let browser: Browser | undefined;
  let context: BrowserContext | undefined;
  let localSpreadsheets: LocalSpreadsheets | undefined;
  let unregister: Array<() => void> = [];
  /** What the fake open dialog answers next (the file Electron's dialog would return). */
  let dialogAnswer: string | null = null;
  const dialogRequests: OpenDialogRequest[] = [];
  const progressSent: SpreadsheetProgress[] = [];
  const taskbar: number[] = [];
  const bridgeCalls: string[] = [];
  const consoleErrors: string[] = [];
  const keychain = createKeychainStore({ service: TEST_KEYCHAIN_SERVICE, entryOptions: TEST_ENTRY_OPTIONS });
  const run = Math.floor(Math.random() * 10_000);

  beforeAll(async () => {
    if (unavailable) return;
    workDir = await mkdtemp(path.join(tmpdir(), 'sandesh-desktop-sheets-'));
    const settings = createSettingsStore({ dir: path.join(workDir, 'settings'), env: {} });

    // The renderer first: its origin (standing in for app://sandesh) is the server's CORS origin.
    rendererServer = createServer((request: IncomingMessage, response: ServerResponse) => {
      void (async () => {
        const appResponse = await serveAppRequest(
          { url: `${DESKTOP_APP_ORIGIN}${request.url ?? '/'}`, method: request.method ?? 'GET' },
          rendererDir,
          async () => buildContentSecurityPolicy(await settings.getServerUrl()),
        );
        response.writeHead(appResponse.status, Object.fromEntries(appResponse.headers));
        response.end(Buffer.from(await appResponse.arrayBuffer()));
      })();
    });
    rendererOrigin = await listen(rendererServer);
    server = await startTestServer({ CORS_ORIGINS: rendererOrigin });
    await settings.setServerUrl(server.url);

    const local = createLocalSpreadsheetHandlers({
      workDir: path.join(workDir, 'spreadsheets'),
      settings,
      keychain,
      dialogs: {
        async openSpreadsheet(request) {
          dialogRequests.push(request);
          return dialogAnswer;
        },
        async saveFile() {
          return null;
        },
      },
      notify: () => undefined,
      setTaskbarProgress: (fraction) => void taskbar.push(fraction),
    });
    localSpreadsheets = local.spreadsheets;

    type Listener = (event: ShimInvokeEvent, ...args: unknown[]) => Promise<unknown>;
    const listeners = new Map<string, Listener>();
    const ipcMain = {
      handle: (channel: string, listener: Listener) => void listeners.set(channel, listener),
      removeHandler: (channel: string) => void listeners.delete(channel),
    };
    const options = { extraOrigins: [rendererOrigin] };
    unregister = [
      registerDesktopIpc(
        ipcMain as unknown as Parameters<typeof registerDesktopIpc>[0],
        createDesktopHandlers({ keychain, settings, openExternal: async () => undefined, appInfo: { version: '0.1.0', platform: process.platform } }),
        options,
      ),
      registerSpreadsheetIpc(
        {
          handle: (channel, listener) =>
            ipcMain.handle(channel, (event, ...args) => {
              // Progress events are recorded on their way into the page.
              const sender = {
                send: (eventChannel: string, payload: SpreadsheetProgress) => {
                  if (eventChannel === SPREADSHEET_CHANNELS.onProgress) progressSent.push(payload);
                  event.sender.send(eventChannel, payload);
                },
                isDestroyed: () => event.sender.isDestroyed(),
              };
              return listener({ ...event, sender } as unknown as SpreadsheetSenderEvent, ...args);
            }),
          removeHandler: ipcMain.removeHandler,
        },
        local.handlers,
        options,
      ),
    ];

    browser = await chromium.launch({
      executablePath: CHROMIUM_EXECUTABLE,
      args: CHROMIUM_ARGS,
    });
    context = await browser.newContext();
    await installPreloadShim(context, preloadFile, (channel) => listeners.get(channel), (channel) => void bridgeCalls.push(channel));
    // Whether the progress bar was ever on screen (it goes once the parse ends).
    await context.addInitScript({
      content: `new MutationObserver(() => { if (document.querySelector('[data-testid="sheet-progress"]')) window.__sheetProgressSeen = true; }).observe(document, { childList: true, subtree: true });`,
    });
  });

  afterAll(async () => {
    if (unavailable) return;
    await context?.close();
    await browser?.close();
    for (const undo of unregister) undo();
    if (server) await keychain.clearToken(server.url);
    await localSpreadsheets?.close();
    await server?.close();
    await close(rendererServer);
    await rm(workDir, { recursive: true, force: true });
  });

  let page: Page;
  beforeEach(async (testContext) => {
    if (unavailable) testContext.skip(unavailable);
    progressSent.length = 0;
    bridgeCalls.length = 0;
    consoleErrors.length = 0;
    if (!context) throw new Error('browser context not started');
    page = await context.newPage();
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
    page.on('pageerror', (error) => consoleErrors.push(error.message));
    testContext.onTestFinished(async ({ task }) => {
      if (task.result?.state === 'fail') {
        console.error('[renderer-desktop-sheets.test] page console errors:', consoleErrors);
        console.error('[renderer-desktop-sheets.test] bridge calls:', bridgeCalls);
        console.error('[renderer-desktop-sheets.test] page text:', (await page.locator('body').innerText()).slice(0, 1500));
      }
      await page.close();
    });
  });

  /** A new user with a wallet, signed in through the login page (the token goes to the keychain). */
  async function signIn(): Promise<{ id: number }> {
    if (!server) throw new Error('server not started');
    const user = await buildUser(server, { creditRupees: 5000, name: 'Desk Sender' });
    // Signed out: no token in the keychain, no user cached by an earlier test's page.
    await keychain.clearToken(server.url);
    await page.goto(`${rendererOrigin}/#/login`);
    await page.evaluate('localStorage.clear()');
    await page.reload();
    await expect.poll(() => page.getByText('Welcome back').isVisible(), { timeout: 20_000 }).toBe(true);
    await page.getByLabel(/username/i).fill(user.username);
    await page.getByLabel(/password/i).first().fill(user.plainPassword);
    await page.getByRole('button', { name: /sign in|log in|login/i }).first().click();
    await expect.poll(() => new URL(page.url()).hash, { timeout: 20_000 }).toMatch(/^#\/user\//);
    await expect.poll(() => keychain.getToken(server?.url ?? ''), { timeout: 10_000 }).toMatch(/.{20,}/);
    return user;
  }

  /** The cost dialog's recipients and total: the total is exactly `recipients` times the per-message price. */
  async function expectExactCost(summaryText: string, recipients: number): Promise<void> {
    expect(summaryText).toContain(`Recipients${new Intl.NumberFormat('en-IN').format(recipients)}Template`);
    const price = Number(/Per-message price₹([\d.]+)/.exec(summaryText)?.[1]);
    const total = Number(/Total cost₹([\d.,]+)/.exec(summaryText)?.[1]?.replace(/,/g, ''));
    expect(price).toBeGreaterThan(0);
    expect(total).toBeCloseTo(price * recipients, 2);
  }

  it('Customize Message: a generated CSV picked through the dialog is parsed, checked, uploaded, priced and sent', async () => {
    if (!server) throw new Error('server not started');
    const user = await signIn();
    const templateName = `desk_orders_${run}`;
    await buildTemplate(server, user as Parameters<typeof buildTemplate>[1], { name: templateName, category: 'UTILITY', body: 'Hi {{1}}, your order {{2}} ships today' });
    const validCount = 1500;
    const { rows, expected } = customerRows(run, validCount);
    const file = path.join(workDir, `customers-${run}.csv`);
    await writeFile(file, csvOf(['Name', 'Mobile', 'Order'], rows));

    await page.goto(`${rendererOrigin}/#/user/customize-message`);
    await expect.poll(() => page.getByRole('heading', { name: ui.customizeTitle }).isVisible(), { timeout: 20_000 }).toBe(true);
    const template = page.getByLabel('Template', { exact: true });
    await expect.poll(() => template.locator('option').allTextContents(), { timeout: 15_000 }).toContain(templateName.replace(/_/g, ' '));
    await template.selectOption({ label: templateName.replace(/_/g, ' ') });

    const sheet = new SheetStep(page, 'customize-file-input');
    dialogAnswer = file;
    await sheet.chooseFile.click();
    await expect.poll(() => sheet.rowCount.textContent(), { timeout: 30_000 }).toBe(
      `${new Intl.NumberFormat('en-IN').format(rows.length)} rows in customers-${run}.csv · 3 columns`,
    );
    expect(dialogRequests.at(-1)?.filters[0]?.extensions).toEqual(['csv', 'gz', 'xlsx', 'xls']);
    expect(bridgeCalls).toContain(SPREADSHEET_CHANNELS.pick);
    expect(bridgeCalls).toContain(SPREADSHEET_CHANNELS.parse);
    // Progress came from the worker through the IPC event into the page, and the bar was shown.
    expect(progressSent.some((p) => p.phase === 'parsing')).toBe(true);
    expect(await page.evaluate('window.__sheetProgressSeen === true')).toBe(true);
    expect(taskbar.at(-1)).toBe(-1);
    // The file is now a recent file in the real settings store.
    expect(await createSettingsStore({ dir: path.join(workDir, 'settings'), env: {} }).getRecentFiles()).toContain(file);

    // Mapped automatically: the phone column by its numbers, the variables by the template's examples or names.
    const recipientColumn = page.getByLabel(m.recipientColumnLabel, { exact: true });
    await expect.poll(() => recipientColumn.inputValue()).toBe('Mobile');
    const variable = (name: string) => page.getByLabel(`Variable {{${name}}}`, { exact: true });
    if ((await variable('1').inputValue()) !== 'Name') await variable('1').selectOption('Name');
    if ((await variable('2').inputValue()) !== 'Order') await variable('2').selectOption('Order');

    await sheet.checkButton.click();
    await expect.poll(() => sheet.uploaded.textContent(), { timeout: 60_000 }).toBe(
      fillMessage(m.uploadComplete, { count: new Intl.NumberFormat('en-IN').format(validCount) }),
    );
    expect(await sheet.validRows.textContent()).toBe(new Intl.NumberFormat('en-IN').format(validCount));
    expect(await sheet.invalidRows.textContent()).toBe('2');
    expect(await sheet.duplicates.textContent()).toBe('2');
    expect(await sheet.invalidList.textContent()).toContain('not a number');
    expect(bridgeCalls).toEqual(expect.arrayContaining([SPREADSHEET_CHANNELS.prepare, SPREADSHEET_CHANNELS.upload]));
    expect(progressSent.some((p) => p.phase === 'checking' || p.phase === 'writing')).toBe(true);
    const uploading = progressSent.filter((p) => p.phase === 'uploading');
    expect(uploading.at(-1)?.percent).toBe(100);

    // The upload really is on the server, complete, owned by this user.
    const uploadRows = (await server.db('uploads').where({ userId: user.id }).select('status')) as Array<{ status: string }>;
    expect(uploadRows.map((row) => row.status)).toEqual(['complete']);

    const sendButton = page.getByTestId('customize-send');
    await sendButton.click();
    const costDialog = page.getByRole('dialog').filter({ has: page.getByTestId('cost-summary') });
    await expect.poll(() => costDialog.isVisible(), { timeout: 30_000 }).toBe(true);
    await expectExactCost((await costDialog.getByTestId('cost-summary').textContent()) ?? '', validCount);
    await costDialog.getByRole('button', { name: ui.sendCampaign, exact: true }).click();

    const result = page.getByTestId('send-result-dialog');
    await expect.poll(() => result.getByRole('heading', { name: ui.campaignAccepted }).isVisible(), { timeout: 60_000 }).toBe(true);

    // On the server: one message per normalised number, with that row's values, in one campaign.
    const stored = (await server.db('messages').where({ userId: user.id }).select('recipient', 'variables', 'campaignId')) as Array<{
      recipient: string;
      variables: string | null;
      campaignId: number;
    }>;
    expect(stored).toHaveLength(validCount);
    expect(new Set(stored.map((row) => row.campaignId)).size).toBe(1);
    const byRecipient = new Map(stored.map((row) => [row.recipient, row.variables ? (JSON.parse(row.variables) as Record<string, string>) : {}]));
    for (const message of expected) expect(byRecipient.get(message.recipient)).toEqual(message.variables);
  }, 180_000);

  it('Quick Send: a generated XLSX picked through the dialog gives its numbers, checked and sent', async () => {
    if (!server) throw new Error('server not started');
    const user = await signIn();
    const templateName = `desk_pickup_${run}`;
    await buildTemplate(server, user as Parameters<typeof buildTemplate>[1], { name: templateName, category: 'UTILITY', body: 'Your order is ready for pickup.' });
    const digits = [mobile(run, 90_001), mobile(run, 90_002), mobile(run, 90_003)];
    const book = new ExcelJS.Workbook();
    const sheetRows = book.addWorksheet('Recipients');
    sheetRows.addRow(['Customer', 'WhatsApp']);
    sheetRows.addRow(['Asha', Number(`91${digits[0]}`)]);
    sheetRows.addRow(['Ravi', `+91 ${digits[1]}`]);
    sheetRows.addRow(['Kiran', 'call me']);
    sheetRows.addRow(['Meena', `0${digits[2]}`]);
    sheetRows.addRow(['Asha again', digits[0]]);
    const file = path.join(workDir, `recipients-${run}.xlsx`);
    await book.xlsx.writeFile(file);

    await page.goto(`${rendererOrigin}/#/user/whatsapp-bulk`);
    const template = page.getByLabel('Template', { exact: true });
    await expect.poll(() => template.locator('option').allTextContents(), { timeout: 20_000 }).toContain(templateName.replace(/_/g, ' '));
    await template.selectOption({ label: templateName.replace(/_/g, ' ') });
    await page.getByRole('radio', { name: m.modeSpreadsheet, exact: true }).check();

    const sheet = new SheetStep(page, 'quick-send-file-input');
    dialogAnswer = file;
    await sheet.chooseFile.click();
    await expect.poll(() => sheet.rowCount.textContent(), { timeout: 30_000 }).toBe(`5 rows in recipients-${run}.xlsx · 2 columns`);
    await expect.poll(() => page.getByLabel(m.recipientColumnLabel, { exact: true }).inputValue()).toBe('WhatsApp');

    const sendButton = page.getByTestId('quick-send-submit');
    await expect.poll(() => sendButton.textContent()).toContain('(5)');
    await sendButton.click();
    await expect.poll(() => sheet.validRows.textContent(), { timeout: 60_000 }).toBe('3');
    expect(await sheet.invalidRows.textContent()).toBe('1');
    expect(await sheet.duplicates.textContent()).toBe('1');
    const costDialog = page.getByRole('dialog').filter({ has: page.getByTestId('cost-summary') });
    await expect.poll(() => costDialog.isVisible(), { timeout: 30_000 }).toBe(true);
    await expectExactCost((await costDialog.getByTestId('cost-summary').textContent()) ?? '', 3);
    await costDialog.getByRole('button', { name: ui.confirmAndSend, exact: true }).click();

    const result = page.getByTestId('send-result-dialog');
    await expect.poll(() => result.getByRole('heading', { name: ui.campaignAccepted }).isVisible(), { timeout: 60_000 }).toBe(true);
    const stored = (await server.db('messages').where({ userId: user.id }).select('recipient')) as Array<{ recipient: string }>;
    expect(stored.map((row) => row.recipient).sort()).toEqual(digits.map((d) => `91${d}`).sort());
  }, 180_000);
});
