import { expect, test } from '@playwright/test';
import { messages } from '@shared/messages';
import { AdminUserSettingsPage } from './pages/AdminUserSettingsPage';
import { AdminWalletPage } from './pages/AdminWalletPage';
import { LoginPage } from './pages/LoginPage';
import { ADMIN, createUser } from './support';

test.describe('admin wallet and user pricing', () => {
  test('an admin adds credits, deducts past zero, and sets custom pricing that survives a reload', async ({ page, baseURL }) => {
    // An admin-created user starts with the default 1000 credits.
    const user = await createUser(baseURL ?? '');

    const login = new LoginPage(page);
    await login.goto();
    await login.login(ADMIN.username, ADMIN.password);
    await page.waitForURL('**/admin/dashboard');

    const wallet = new AdminWalletPage(page);
    await page.getByPlaceholder(/Search/i).fill(user.username);
    await wallet.openFromTable(user.username);
    await expect(page.getByText(user.email)).toBeVisible();
    await expect(wallet.balance).toHaveText('₹1,000.00');
    await expect(wallet.modeRadio('deduct')).toBeChecked();

    // The reason is required before anything is sent.
    await wallet.fill('add', '500', '');
    await wallet.submit('add');
    await expect(page.getByText(messages.adminWallet.reasonRequired)).toBeVisible();
    await expect(wallet.balance).toHaveText('₹1,000.00');

    await wallet.fill('add', '500', 'Bank transfer received');
    await expect(wallet.newBalance).toHaveText('₹1,500.00');
    await wallet.submit('add');
    await expect(page.getByText(messages.adminWallet.credited)).toBeVisible();
    await expect(wallet.balance).toHaveText('₹1,500.00');
    await expect(wallet.amount).toHaveValue('');

    await wallet.fill('deduct', '5000', 'Closing the account');
    await expect(wallet.newBalance).toHaveText('₹0.00');
    await wallet.submit('deduct');
    await expect(page.getByText(messages.adminWallet.debited)).toBeVisible();
    await expect(wallet.balance).toHaveText('₹0.00');

    // The balance is the server's, not the screen's: it holds after a reload.
    await page.reload();
    await expect(wallet.balance).toHaveText('₹0.00');

    const settings = new AdminUserSettingsPage(page);
    await settings.goto(wallet.userId());
    await expect(page.getByRole('tab', { name: 'Basic Information' })).toHaveAttribute('aria-selected', 'true');
    await settings.openTab('Pricing');
    await expect(settings.customPricing).not.toBeChecked();
    await expect(settings.pricingMode).toHaveText('Default pricing');

    await settings.customPricing.click();
    await settings.savePricing();
    await expect(page.getByText(messages.pricing.customPriceRequired)).toBeVisible();

    await settings.price('marketing').fill('0.65');
    await settings.savePricing();
    await expect(page.getByText(messages.pricing.userPricingUpdated)).toBeVisible();
    await expect(settings.pricingMode).toHaveText('Custom pricing');

    await page.reload();
    await expect(page.getByRole('tab', { name: 'Pricing' })).toHaveAttribute('aria-selected', 'true');
    await expect(settings.customPricing).toBeChecked();
    await expect(settings.price('marketing')).toHaveValue('0.65');
    await expect(settings.price('utility')).toHaveValue('');
    // Service replies (inside the 24-hour window) are priced like the template categories.
    await expect(settings.price('service')).toHaveValue('');
    await expect(settings.price('service')).toBeEditable();
    await expect(settings.effectivePrices).toContainText('₹0.65');
    await expect(page.getByRole('button', { name: 'Revert to Defaults' })).toBeVisible();

    // The global defaults show and edit the service price too, ₹0 unless an admin sets one.
    await page.goto('/admin/pricing');
    const defaults = page.getByRole('form', { name: 'Global default prices' });
    await expect(defaults.getByText('Service replies', { exact: true })).toBeVisible();
    const service = defaults.getByLabel('Service replies (₹ per message)');
    await expect(service).toBeEditable();
    expect(Number(await service.inputValue())).toBe(0);
  });
});
