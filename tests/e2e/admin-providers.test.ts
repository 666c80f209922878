import { expect, test, type Page } from '@playwright/test';
import { PROVIDERS } from '@shared/constants';
import { fillMessage, messages } from '@shared/messages';
import { AdminUserDetailsPage } from './pages/AdminUserDetailsPage';
import { AdminUsersPage } from './pages/AdminUsersPage';
import { CloudApiCard } from './pages/CloudApiCard';
import { LoginPage } from './pages/LoginPage';
import { ProviderSettingsTab } from './pages/ProviderSettingsTab';
import { ADMIN, createUser, unique } from './support';

const p = messages.providers;

async function signInAsAdmin(page: Page): Promise<void> {
  const login = new LoginPage(page);
  await login.goto();
  await login.login(ADMIN.username, ADMIN.password);
  await page.waitForURL('**/admin/dashboard');
}

test.describe('admin provider configuration', () => {
  test('an admin sets a channel and its write-only API key on the Provider tab', async ({ page, baseURL, context }) => {
    const user = await createUser(baseURL ?? '');
    await signInAsAdmin(page);
    const details = new AdminUserDetailsPage(page);
    await details.openFromTable(user.username);

    const tab = new ProviderSettingsTab(page);
    await tab.open(details.userId());
    await expect(page.getByRole('tab')).toHaveText(['Basic Information', 'Provider', 'Pricing', 'Security']);
    await expect(tab.badge).toHaveText(p.apiKeyNotSet);
    await expect(tab.details.getByText(p.businessNameDefault, { exact: true })).toBeVisible();
    await expect(tab.details.getByText(p.whatsappNumberDefault, { exact: true })).toBeVisible();
    await expect(tab.webhookUrl).toHaveValue(/\/api\/webhooks\/whatsapp$/);
    await expect(tab.save).toBeDisabled();

    // Save stays off while the form is invalid, and says why.
    await tab.channelId.fill('c');
    await expect(page.getByText(p.channelIdMin)).toBeVisible();
    await expect(tab.save).toBeDisabled();
    const channelId = unique('channel');
    await tab.channelId.fill(channelId);
    await tab.apiKey.fill('short');
    await expect(page.getByText(p.apiKeyLength)).toBeVisible();
    await expect(tab.save).toBeDisabled();
    const apiKey = `key-${unique('k')}`;
    await tab.apiKey.fill(apiKey);
    await expect(tab.save).toBeEnabled();

    // The typed key shows only while the button is held, and only after the hold delay.
    await expect(tab.apiKey).toHaveAttribute('type', 'password');
    await tab.holdReveal(200, async () => {
      await expect(tab.apiKey).toHaveAttribute('type', 'password');
      await expect(tab.apiKey).toHaveAttribute('type', 'text', { timeout: PROVIDERS.revealHoldMs * 3 });
    });
    await expect(tab.apiKey).toHaveAttribute('type', 'password');

    await tab.save.click();
    await expect(page.getByText(p.settingsSaved)).toBeVisible();
    // The save registered the webhook at 360dialog (here the server's own simulator).
    await expect(page.getByText(p.d360WebhookRegistered)).toBeVisible();
    await expect(tab.badge).toHaveText(p.apiKeySet);
    await expect(tab.apiKey).toHaveValue('');
    await expect(tab.channelId).toHaveValue(channelId);
    await expect(tab.save).toBeDisabled();

    // Reset brings back what was saved.
    await tab.channelId.fill(`${channelId}-other`);
    await tab.reset.click();
    await expect(tab.channelId).toHaveValue(channelId);

    // The key is never sent back: after a reload only the badge says it is there.
    await page.reload();
    await expect(tab.badge).toHaveText(p.apiKeySet);
    await expect(tab.channelId).toHaveValue(channelId);
    await expect(tab.apiKey).toHaveValue('');
    expect(await page.content()).not.toContain(apiKey);

    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await tab.copy.click();
    await expect(tab.copy).toContainText(p.copied);
    // A string expression: the node type-check has no DOM types for a browser-side function.
    expect(await page.evaluate<string>('navigator.clipboard.readText()')).toMatch(/\/api\/webhooks\/whatsapp$/);
    await expect(tab.copy).not.toContainText(p.copied, { timeout: PROVIDERS.copiedIndicatorMs * 3 });
  });

  test('a key 360dialog refuses is reported under the API key field, and an unregistered webhook as a warning', async ({ page, baseURL }) => {
    const user = await createUser(baseURL ?? '');
    await signInAsAdmin(page);
    const details = new AdminUserDetailsPage(page);
    await details.openFromTable(user.username);
    const tab = new ProviderSettingsTab(page);
    await tab.open(details.userId());
    await expect(tab.details.getByText(p.d360WebhookNote)).toBeVisible();
    await expect(tab.details.getByText(p.channelProviderName, { exact: true })).toBeVisible();

    // The server's answers when 360dialog refuses the key (401) and when it cannot be reached
    // (tests/api/channel-360dialog.test.ts checks the server gives them); here only the screen.
    const refused = fillMessage(p.d360KeyRefused, { reason: 'Invalid or missing D360-API-KEY' });
    const unreachable = fillMessage(p.d360WebhookFailed, { reason: 'connect ECONNREFUSED' });
    const answers = [
      { status: 400, body: { success: false, code: 'validation_error', error: refused, field: 'apiKey' } },
      {
        status: 200,
        body: { success: true, message: p.settingsSaved, channelId: 'ch_e2e', apiKeySet: true, updatedAt: new Date().toISOString(), webhook: { registered: false, error: unreachable } },
      },
    ];
    await page.route(`**/api/admin/whatsapp/settings/${details.userId()}`, async (route) => {
      const answer = route.request().method() === 'PUT' ? answers.shift() : undefined;
      if (!answer) return route.continue();
      await route.fulfill({ status: answer.status, contentType: 'application/json', body: JSON.stringify(answer.body) });
    });

    await tab.channelId.fill('ch_e2e');
    await tab.apiKey.fill('not-a-360dialog-key');
    await tab.save.click();
    await expect(page.locator('#provider-api-key-error')).toContainText(refused);
    await expect(tab.apiKey).toHaveAttribute('aria-invalid', 'true');

    await tab.apiKey.fill('another-360dialog-key');
    await tab.save.click();
    await expect(page.getByText(unreachable)).toBeVisible();
    await expect(tab.apiKey).toHaveValue('');
  });

  test('an admin edits basic info on the details page and the Cloud API set-up on the Provider tab, and the user becomes Configured', async ({ page, baseURL }) => {
    const user = await createUser(baseURL ?? '');
    await signInAsAdmin(page);
    const users = new AdminUsersPage(page);
    await users.search(user.username);
    await expect(users.row(user.username)).toContainText(messages.admin.notConfigured);

    const details = new AdminUserDetailsPage(page);
    await details.openFromTable(user.username);
    await expect(details.name).toHaveValue(user.name);
    await expect(details.save).toBeDisabled();
    // Provider fields are no longer split across User Details and Settings.
    await expect(page.getByLabel('Access Token')).toHaveCount(0);
    await expect(page.getByLabel('Channel ID')).toHaveCount(0);
    await details.name.fill('Priya Sharma Traders');
    await details.save.click();
    await expect(page.getByText(messages.adminUser.updated)).toBeVisible();

    await details.providerSettings.click();
    await page.waitForURL(/\/settings\?tab=provider$/);
    const cloud = new CloudApiCard(page);
    const channel = new ProviderSettingsTab(page);
    // Both halves of the provider set-up are on this one tab.
    await expect(cloud.form).toBeVisible();
    await expect(channel.channelId).toBeVisible();
    await expect(cloud.accessTokenStatus).toHaveText(p.secretNotSet);
    await expect(cloud.active).toBeChecked();
    await expect(cloud.save).toBeDisabled();

    await cloud.businessName.fill('Sharma Traders');
    await cloud.whatsappNumber.fill('98-abc');
    await cloud.webhookUrl.fill('ftp://hooks.example.in');
    await cloud.save.click();
    await expect(page.getByText(messages.validation.whatsappNumberInvalid)).toBeVisible();
    await expect(page.getByText(p.webhookUrlInvalid)).toBeVisible();

    const token = `EAAG-${unique('token')}`;
    await cloud.whatsappNumber.fill('+91 98123 45678');
    await cloud.webhookUrl.fill('https://hooks.example.in/whatsapp');
    await cloud.numberId.fill(`1${Date.now()}`);
    await cloud.wabaId.fill('waba_e2e');
    await cloud.accessToken.fill(token);
    await cloud.save.click();
    await expect(page.getByText(p.detailsSaved)).toBeVisible();
    await expect(cloud.accessTokenStatus).toHaveText(p.secretSet);
    await expect(cloud.accessToken).toHaveValue('');
    await expect(cloud.whatsappNumber).toHaveValue('919812345678');
    await expect(cloud.form.getByText(messages.admin.configured, { exact: true })).toBeVisible();

    await page.reload();
    await expect(cloud.businessName).toHaveValue('Sharma Traders');
    await expect(cloud.accessTokenStatus).toHaveText(p.secretSet);
    expect(await page.content()).not.toContain(token);

    // Turning the business off is saved too.
    await cloud.active.click();
    const saved = page.waitForResponse((response) => response.url().endsWith('/business-info') && response.request().method() === 'PUT');
    await cloud.save.click();
    expect((await saved).status()).toBe(200);
    await page.reload();
    await expect(cloud.active).not.toBeChecked();

    // An old ?tab=whatsapp link opens the same tab.
    await page.goto(`/admin/users/${details.userId()}/settings?tab=whatsapp`);
    await expect(page.getByRole('tab', { name: 'Provider' })).toHaveAttribute('aria-selected', 'true');

    await page.goto('/admin/dashboard');
    await users.search(user.username);
    await expect(users.row(user.username)).toContainText(messages.admin.configured);
    await expect(users.row(user.username)).toContainText('Priya Sharma Traders');
  });
});
