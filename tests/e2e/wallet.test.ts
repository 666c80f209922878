import { expect, test, type Page } from '@playwright/test';
import { messages } from '@shared/messages';
import { LoginPage } from './pages/LoginPage';
import { WalletPage } from './pages/WalletPage';
import { createUser } from './support';

const w = messages.wallet;

/** An admin-created user starts with 1,000 credits (docs/decisions/2026-11-24-product-basics.md). */
async function signInNewUser(page: Page, baseURL: string | undefined) {
  const user = await createUser(baseURL ?? '');
  const login = new LoginPage(page);
  await login.goto();
  await login.login(user.username, user.password);
  await page.waitForURL('**/user/dashboard');
  return user;
}

/** Fails the test on any alert: the spec's payment failures are alerts. */
function failOnAlert(page: Page) {
  page.on('dialog', (dialog) => {
    throw new Error(`unexpected ${dialog.type()}: ${dialog.message()}`);
  });
}

test.describe('wallet top-up (development sandbox checkout)', () => {
  test('a user pays ₹1,000 in the sandbox and sees the credits in the balance and the history', async ({ page, baseURL }) => {
    await signInNewUser(page, baseURL);
    failOnAlert(page);
    const wallet = new WalletPage(page);
    await wallet.goto();
    await expect(wallet.sandboxBadge).toContainText(w.sandboxNotice);
    await expect(wallet.balance).toHaveText('₹1,000.00');
    await expect(wallet.payButton()).toBeDisabled();

    await wallet.preset('₹1,000').click();
    await expect(wallet.preset('₹1,000')).toHaveAttribute('aria-pressed', 'true');
    await expect(wallet.payButton()).toHaveText('Add ₹1,000 Credits');
    await wallet.pay();

    await expect(page.getByText(w.processingPayment)).toBeVisible();
    await expect(page.getByText(w.processingPaymentDescription)).toBeVisible();
    await expect(wallet.payButton()).toHaveText(w.processing);
    await expect(wallet.payButton()).toBeDisabled();

    // The page reloads 3 s after a verified payment (spec 000 §4.6).
    const reloaded = page.waitForEvent('load', { timeout: 15_000 });
    await wallet.payInCheckout('₹1,000');
    await expect(wallet.checkout).toBeHidden();
    await expect(page.getByText(w.creditsAdded)).toBeVisible();
    await expect(wallet.balance).toHaveText('₹2,000.00');
    await expect(page.getByTestId('credits-balance')).toHaveText('2,000');
    await reloaded;
    await expect(wallet.balance).toHaveText('₹2,000.00');

    await page.getByRole('link', { name: /Back to Dashboard/ }).click();
    await page.waitForURL('**/user/dashboard');
    await expect(page.getByTestId('available-credits')).toHaveText('₹2,000.00');

    await page.goto('/user/profile');
    await page.getByRole('tab', { name: 'Credit History' }).click();
    // Plain words, ₹ with Indian grouping and the balance after.
    const entry = page.getByRole('listitem').filter({ hasText: 'Wallet top-up' });
    await expect(entry).toHaveCount(1);
    await expect(entry).toContainText('+₹1,000.00');
    await expect(entry).toContainText('Balance ₹2,000.00');
  });

  test('the custom amount groups digits, shows the bound errors and clears for a preset', async ({ page, baseURL }) => {
    await signInNewUser(page, baseURL);
    const wallet = new WalletPage(page);
    await wallet.goto();

    await wallet.customAmount.fill('25000');
    await wallet.customAmount.blur();
    await expect(wallet.customAmount).toHaveValue('25,000');
    await expect(wallet.payButton()).toHaveText('Add ₹25,000 Credits');
    await expect(wallet.payButton()).toBeEnabled();
    await wallet.customAmount.focus();
    await expect(wallet.customAmount).toHaveValue('25000');

    await wallet.customAmount.fill('100001');
    await expect(wallet.fieldError(w.amountMax)).toBeVisible();
    await expect(wallet.payButton()).toBeDisabled();
    await wallet.customAmount.fill('0');
    await expect(wallet.fieldError(w.amountMin)).toBeVisible();
    await expect(wallet.payButton()).toBeDisabled();

    // Empty is no amount and no error; the helper text is back.
    await wallet.customAmount.fill('');
    await expect(page.getByRole('alert').filter({ hasText: /Amount/ })).toHaveCount(0);
    await expect(page.getByText(w.amountHelper)).toBeVisible();
    await expect(wallet.payButton()).toBeDisabled();

    await wallet.customAmount.fill('750');
    await wallet.preset('₹5,000').click();
    await expect(wallet.customAmount).toHaveValue('');
    await expect(wallet.payButton()).toHaveText('Add ₹5,000 Credits');

    await wallet.goto('?amount=2500');
    await expect(wallet.customAmount).toHaveValue('2,500');
    await wallet.goto('?amount=1000');
    await expect(wallet.preset('₹1,000')).toHaveAttribute('aria-pressed', 'true');
    await wallet.goto('?amount=500000');
    await expect(wallet.customAmount).toHaveValue('');
    await expect(wallet.payButton()).toBeDisabled();
  });

  test('closing the checkout window changes nothing, and a refused order is alerted', async ({ page, baseURL }) => {
    await signInNewUser(page, baseURL);
    const wallet = new WalletPage(page);
    await wallet.goto();

    const alerts: string[] = [];
    page.on('dialog', (dialog) => {
      alerts.push(dialog.message());
      void dialog.accept();
    });

    await wallet.customAmount.fill('250');
    await wallet.pay();
    await wallet.cancelCheckout();
    await expect(wallet.checkout).toBeHidden();
    await expect(wallet.payButton()).toHaveText('Add ₹250 Credits');
    await expect(wallet.payButton()).toBeEnabled();
    await wallet.refreshBalance.click();
    await expect(wallet.balance).toHaveText('₹1,000.00');
    expect(alerts).toEqual([]);

    await page.route('**/api/payments/razorpay/order', (route) =>
      route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: JSON.stringify({ error: 'Payments are down for maintenance', code: 'payments_not_configured' }),
      }),
    );
    await wallet.pay();
    await expect.poll(() => alerts).toEqual(['Payment failed: Payments are down for maintenance']);
    await expect(wallet.payButton()).toBeEnabled();
  });
});
