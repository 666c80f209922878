import { expect, request, test, type APIRequestContext } from '@playwright/test';
import { fillMessage, messages } from '@shared/messages';
import { formatRupees } from '@shared/money';
import type { TAdminUserDetails } from '@shared/types';
import { AdminUserDetailsPage } from './pages/AdminUserDetailsPage';
import { AdminWalletPage } from './pages/AdminWalletPage';
import { LoginPage } from './pages/LoginPage';
import { approvedTemplate, openE2eDatabase, settledCampaign, testPhone } from './sending-support';
import { ADMIN, adminApi, createUser, unique } from './support';

const w = messages.adminWallet;

/**
 * Leaves messages as a failure reported only under the customer's own app secret leaves them
 * (failed, charged, not refunded), in the e2e server's own SQLite file: the webhook path itself is
 * covered by the API tests (webhook-security, held-refunds).
 */
function holdRefunds(campaignId: number, recipients: string[]): void {
  const db = openE2eDatabase();
  db.pragma('busy_timeout = 10000');
  const hold = db.prepare(
    "update messages set status = 'failed', refunded = 0, failed_at = ?, error_code = 131026, error_message = 'Message undeliverable' where campaign_id = ? and recipient = ?",
  );
  for (const recipient of recipients) hold.run(new Date().toISOString(), campaignId, recipient);
  db.close();
}

async function balanceOf(api: APIRequestContext, userId: string): Promise<number> {
  return ((await (await api.get(`/api/admin/users/${userId}/details`)).json()) as TAdminUserDetails).user.creditBalance;
}

test.describe('held refunds', () => {
  test('an admin sees why refunds are held, releases them from the keyboard, and the wallet balance follows', async ({ page, baseURL }) => {
    test.setTimeout(120_000);
    const base = baseURL ?? '';
    const user = await createUser(base);
    const template = unique('held_tpl');
    await approvedTemplate(base, user, { name: template, category: 'MARKETING', bodyText: 'Hello {{1}}', variableExamples: { '1': 'Meera' } });
    const userApi = await request.newContext({ baseURL: base });
    expect((await userApi.post('/api/auth/login', { data: { username: user.username, password: user.password } })).ok()).toBe(true);
    const recipients = [testPhone(), testPhone(), testPhone()];
    const campaignId = await settledCampaign(userApi, template, recipients);
    await userApi.dispose();

    const login = new LoginPage(page);
    await login.goto();
    await login.login(ADMIN.username, ADMIN.password);
    await page.waitForURL('**/admin/dashboard');
    const details = new AdminUserDetailsPage(page);
    await details.openFromTable(user.username);
    const userId = details.userId();
    const card = page.getByRole('region', { name: w.heldRefundsTitle });
    await expect(card.getByTestId('held-refunds-empty')).toHaveText(w.heldRefundsNone);

    const admin = await adminApi(base);
    const afterSending = await balanceOf(admin, userId);
    const price = Math.round(((1000 - afterSending) / recipients.length) * 10_000) / 10_000;
    expect(price).toBeGreaterThan(0);
    // Shown, not editable: a balance changes on the Wallet page with a reason.
    const balanceShown = page.getByTestId('details-credit-balance');
    await expect(balanceShown).toHaveText(formatRupees(afterSending));
    await expect(page.getByLabel('Credit Balance (₹)')).toHaveCount(0);

    // Two of the three messages are held.
    holdRefunds(campaignId, recipients.slice(0, 2));
    await page.reload();
    const heldAmount = formatRupees(price * 2);
    await expect(card.getByTestId('held-refunds-count')).toHaveText('2');
    await expect(card.getByTestId('held-refunds-amount')).toHaveText(heldAmount);
    await expect(card.getByText(w.heldRefundsWhy)).toBeVisible();
    await expect(card.getByRole('row')).toHaveCount(3);
    await expect(card.getByRole('row').nth(1)).toContainText('131026: Message undeliverable');

    // Keyboard only: the release button, then the confirmation, which names the amount.
    const release = card.getByRole('button', { name: fillMessage(w.releaseHeldRefunds, { amount: heldAmount }) });
    await release.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('alertdialog');
    await expect(dialog.getByRole('heading')).toHaveText(fillMessage(w.releaseHeldConfirmTitle, { amount: heldAmount, username: user.username }));
    await expect(dialog).toContainText(heldAmount);
    await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(dialog.getByRole('button', { name: fillMessage(w.releaseHeldRefunds, { amount: heldAmount }) })).toBeFocused();
    await page.keyboard.press('Enter');

    await expect(page.getByText(fillMessage(w.heldRefundsReleased, { count: '2', amount: heldAmount }))).toBeVisible();
    await expect(dialog).toBeHidden();
    await expect(card.getByTestId('held-refunds-empty')).toHaveText(w.heldRefundsNone);
    const released = Math.round((afterSending + price * 2) * 100) / 100;
    await expect.poll(() => balanceOf(admin, userId)).toBeCloseTo(released, 4);
    await expect(balanceShown).toHaveText(formatRupees(await balanceOf(admin, userId)));

    // The third is held too; another administrator releases it while this one confirms.
    holdRefunds(campaignId, recipients.slice(2));
    await page.reload();
    await expect(card.getByTestId('held-refunds-count')).toHaveText('1');
    await card.getByRole('button', { name: fillMessage(w.releaseHeldRefunds, { amount: formatRupees(price) }) }).click();
    const elsewhere = await admin.post(`/api/admin/users/${userId}/held-refunds/release`, { data: {} });
    expect(elsewhere.status()).toBe(200);
    await dialog.getByRole('button', { name: fillMessage(w.releaseHeldRefunds, { amount: formatRupees(price) }) }).click();
    await expect(page.getByText(w.noHeldRefunds)).toBeVisible();
    await expect(card.getByTestId('held-refunds-empty')).toHaveText(w.heldRefundsNone);

    // Every held refund paid once: the wallet is back where it started.
    expect(await balanceOf(admin, userId)).toBeCloseTo(1000, 4);
    const wallet = new AdminWalletPage(page);
    await page.goto(`/admin/users/${userId}/wallet`);
    await expect(wallet.balance).toHaveText('₹1,000.00');
    await admin.dispose();
  });
});
