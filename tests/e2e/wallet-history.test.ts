import { readFile } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import { istDate } from '@shared/istTime';
import { messages } from '@shared/messages';
import { LoginPage } from './pages/LoginPage';
import { WalletPage } from './pages/WalletPage';
import { createUser } from './support';

const w = messages.wallet;
const wh = messages.walletHistory;

/** An admin-created user starts with 1,000 credits (docs/decisions/2026-11-24-product-basics.md). */
async function signInNewUser(page: Page, baseURL: string | undefined) {
  const user = await createUser(baseURL ?? '');
  const login = new LoginPage(page);
  await login.goto();
  await login.login(user.username, user.password);
  await page.waitForURL('**/user/dashboard');
  return user;
}

test.describe('wallet page', () => {
  test('Tab into Custom Amount and typing replaces the amount, and the limit error groups digits the Indian way', async ({ page, baseURL }) => {
    await signInNewUser(page, baseURL);
    const wallet = new WalletPage(page);
    await wallet.goto();
    await expect(page.locator('header h1')).toHaveText('Wallet');

    await wallet.customAmount.fill('3000');
    await wallet.customAmount.blur();
    await expect(wallet.customAmount).toHaveValue('3,000');
    // The last preset comes right before the field: Tab from it, then type.
    await wallet.preset('₹10,000').focus();
    await page.keyboard.press('Tab');
    await expect(wallet.customAmount).toBeFocused();
    await page.keyboard.type('4000');
    await expect(wallet.customAmount).toHaveValue('4000');
    await expect(wallet.payButton()).toHaveText('Add ₹4,000 Credits');

    await wallet.customAmount.fill('100001');
    await expect(wallet.fieldError('Amount cannot exceed ₹1,00,000')).toBeVisible();
    await expect(page.getByText(w.amountHelper)).toBeHidden();
  });

  test('a top-up appears in the wallet history in plain words with a running balance, filters, a CSV export in IST and a PDF receipt', async ({ page, baseURL }) => {
    await signInNewUser(page, baseURL);
    const wallet = new WalletPage(page);
    await wallet.goto();
    await expect(wallet.historyRows).toHaveCount(1);
    await expect(wallet.historyRow('Opening balance')).toContainText('₹1,000.00');

    await wallet.preset('₹1,000').click();
    const reloaded = page.waitForEvent('load', { timeout: 15_000 });
    await wallet.pay();
    await wallet.payInCheckout('₹1,000');
    await expect(page.getByText(w.creditsAdded)).toBeVisible();
    await reloaded;
    await expect(wallet.balance).toHaveText('₹2,000.00');

    await expect(wallet.historyRows).toHaveCount(2);
    const topUp = wallet.historyRow('Wallet top-up');
    await expect(topUp).toContainText('+₹1,000.00');
    await expect(topUp).toContainText('₹2,000.00');
    await expect(topUp).toContainText(/\d{4}, \d{1,2}:\d{2} (am|pm) IST/);
    await expect(wallet.historyRows.first()).toContainText('Wallet top-up');

    await wallet.historyKind.selectOption({ label: wh.kindTopup });
    await expect(wallet.historyRows).toHaveCount(1);
    await wallet.historyKind.selectOption({ label: wh.kindAdjustment });
    await expect(wallet.historyRows).toHaveCount(1);
    await expect(wallet.historyRows.first()).toContainText('Opening balance');
    await wallet.historyKind.selectOption({ label: wh.kindAll });
    const yesterday = istDate(new Date(Date.now() - 86_400_000));
    await wallet.historyTo.fill(yesterday);
    await expect(page.getByText(wh.empty)).toBeVisible();
    await wallet.historyFrom.fill(istDate());
    await expect(page.getByRole('alert').filter({ hasText: wh.dateRangeInvalid })).toBeVisible();
    await wallet.historyTo.fill('');
    await wallet.historyFrom.fill('');
    await expect(wallet.historyRows).toHaveCount(2);

    const csvDownload = page.waitForEvent('download');
    await wallet.historyExport.click();
    const csv = await csvDownload;
    expect(csv.suggestedFilename()).toBe(`wallet_history_${istDate()}.csv`);
    const lines = (await readFile(await csv.path(), 'utf8')).replace(/^\uFEFF/, '').trimEnd().split('\r\n');
    expect(lines[0]).toBe('Date (IST),Entry,Details,Credit (INR),Debit (INR),Balance After (INR),Reference');
    expect(lines).toHaveLength(3);
    expect(lines[1]).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2},Wallet top-up,.*,1000\.00,,2000\.00,$/);

    const pdfDownload = page.waitForEvent('download');
    await wallet.receiptButton(topUp).click();
    const pdf = await pdfDownload;
    expect(pdf.suggestedFilename()).toMatch(/^TOPUP-\d{6,}\.pdf$/);
    expect((await readFile(await pdf.path())).subarray(0, 5).toString('latin1')).toBe('%PDF-');
    await expect(wallet.receiptButton(wallet.historyRow('Opening balance'))).toHaveCount(0);
  });
});
