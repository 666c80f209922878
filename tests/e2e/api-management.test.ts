import { expect, request, test } from '@playwright/test';
import { messages } from '@shared/messages';
import { ApiManagementPage } from './pages/ApiManagementPage';
import { LoginPage } from './pages/LoginPage';
import { approvedTemplate, testPhone } from './sending-support';
import { createUser, unique } from './support';

const k = messages.apiKeys;

/** The texts the simulator delivered to a phone. */
async function deliveredTexts(baseURL: string, phone: string): Promise<string[]> {
  const api = await request.newContext({ baseURL });
  const response = await api.get(`/simulator/messages?to=${phone}`);
  const body = (await response.json()) as { data: { text?: string }[] };
  await api.dispose();
  return body.data.map((message) => message.text ?? '');
}

test.describe('API management', () => {
  test('a user creates an API key, sees it once, sends an approved template with it from the console, and revokes it', async ({
    page,
    context,
    baseURL,
  }) => {
    const origin = baseURL ?? '';
    const user = await createUser(origin, { name: 'Asha Verma' });
    const template = unique('order_update');
    await approvedTemplate(origin, user, {
      name: template,
      category: 'UTILITY',
      bodyText: 'Hello {{1}}, your order {{2}} has shipped.',
      variableExamples: { '1': 'Priya', '2': 'ORD-1' },
    });
    const phone = testPhone();
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin });

    const login = new LoginPage(page);
    await login.goto();
    await login.login(user.username, user.password);
    await page.waitForURL('**/user/dashboard');

    const api = new ApiManagementPage(page);
    await api.goto();
    await expect(api.stat('API Status')).toHaveText('Online');
    await expect(api.stat('Approved Templates')).toHaveText('1');
    await expect(api.stat('Rate Limit')).toHaveText('100/15min');
    await expect(page.getByText('per IP address', { exact: true })).toBeVisible();
    await expect(api.stat('Username')).toHaveText(user.username);
    await expect(page.getByText(k.noKeys)).toBeVisible();

    // A name is required; then the new key is shown once, with a copy button.
    await api.createKey.click();
    await expect(page.getByText(k.nameRequired)).toBeVisible();
    await api.keyName.fill('Order system');
    await api.createKey.click();
    await expect(api.newKeyDialog).toBeVisible();
    await expect(api.newKeyDialog).toContainText(k.shownOnce);
    const key = await api.newKey.inputValue();
    expect(key).toMatch(/^snd_[A-Za-z0-9]{43}$/);
    // The button's name follows its text: "Copy API key", then "Copied API key" for two seconds.
    const copy = api.newKeyDialog.getByRole('button', { name: /^Cop(y|ied) API key$/ });
    await copy.click();
    await expect(copy).toContainText('Copied');
    expect(await page.evaluate<string>('navigator.clipboard.readText()')).toBe(key);
    // The feedback lasts two seconds.
    await expect(copy).not.toContainText('Copied', { timeout: 3_000 });
    await api.newKeyDialog.getByRole('button', { name: 'Done', exact: true }).click();
    await expect(api.newKeyDialog).toBeHidden();

    await expect(api.keyRows).toHaveCount(1);
    await expect(api.row('Order system')).toContainText(key.slice(0, 12));
    await expect(api.row('Order system')).toContainText('Last used never');
    await expect(api.row('Order system')).toContainText('100/15min per IP address');
    // Filled into the console for this visit only.
    await expect(api.consoleKey).toHaveValue(key);

    // After a reload the key is nowhere on the page: only its prefix is.
    await page.reload();
    await expect(api.row('Order system')).toContainText(key.slice(0, 12));
    await expect(api.consoleKey).toHaveValue('');
    expect(await page.content()).not.toContain(key);

    // The console: the template's parameters start from its examples and drive the preview.
    await expect(api.sendTest).toBeDisabled();
    await api.consoleKey.fill(key);
    await api.template.selectOption({ label: `${template} (English (US))` });
    await expect(api.param('var1')).toHaveValue('Priya');
    await expect(api.param('var2')).toHaveValue('ORD-1');
    await expect(api.preview).toContainText('Hello Priya, your order ORD-1 has shipped.');
    await api.param('var1').fill('Ravi');
    await expect(api.preview).toContainText('Hello Ravi, your order ORD-1 has shipped.');

    await expect(page.getByText(k.recipientHint)).toBeVisible();
    await api.recipient.fill(`+${phone}`);
    await expect(api.recipient).toHaveValue(phone);
    await expect(api.sendTest).toBeEnabled();

    // The examples are the same request, ready to copy.
    const curl = await api.example('cURL');
    await expect(curl).toContainText(`curl -X POST '${origin}/api/send'`);
    await expect(curl).toContainText(`Authorization: Bearer ${key}`);
    await expect(curl).toContainText(`"recipient_number": "${phone}"`);
    await expect(curl).toContainText('"var1": "Ravi"');
    await expect(await api.example('JavaScript')).toContainText(`fetch("${origin}/api/send"`);
    const python = await api.example('Python');
    await expect(python).toContainText('timeout=30');
    await expect(python).toContainText(`"templatename": "${template}"`);
    await page.getByRole('button', { name: 'Copy Python', exact: true }).click();
    expect(await page.evaluate<string>('navigator.clipboard.readText()')).toContain('import requests');

    // A real send with the key, as an integrator makes it.
    await api.sendTest.click();
    await expect(api.responseStatus).toHaveText('Status 200 · Success');
    await expect(api.responseBody).toContainText('"message_id"');
    await expect(api.responseBody).toContainText(messages.publicApi.sent);
    await expect.poll(() => deliveredTexts(origin, phone), { timeout: 30_000 }).toContainEqual(expect.stringContaining('Hello Ravi, your order ORD-1 has shipped.'));

    // A wrong key is refused with the spec's text.
    await api.consoleKey.fill(`snd_${'x'.repeat(43)}`);
    await api.sendTest.click();
    await expect(api.responseStatus).toHaveText('Status 401 · Error');
    await expect(api.responseBody).toContainText(messages.publicApi.invalidCredentials);

    // The key's last use shows once the list is read again.
    await page.reload();
    await expect(api.row('Order system')).not.toContainText('Last used never');

    // Revoked, it no longer works.
    await api.revoke('Order system');
    await expect(page.getByText(k.revoked)).toBeVisible();
    await expect(page.getByText(k.noKeys)).toBeVisible();
    await api.consoleKey.fill(key);
    await api.template.selectOption({ label: `${template} (English (US))` });
    await api.recipient.fill(phone);
    await api.sendTest.click();
    await expect(api.responseStatus).toHaveText('Status 401 · Error');

    // The documentation tabs.
    const errors = await api.docsTab('Error Codes');
    for (const text of ['200', '400', '401', '429', 'Missing or invalid parameters', 'Invalid username credentials', 'Too many requests (100 per 15 minutes)']) {
      await expect(errors).toContainText(text);
    }
    await expect(await api.docsTab('Endpoints')).toContainText('POST /api/send/batch');
    await expect(await api.docsTab('Overview')).toContainText('X-API-Key');
    await expect(await api.docsTab('Examples')).toContainText('"campaign_id"');
  });

  test('sends visitors without a session to /login', async ({ page }) => {
    await page.goto('/user/api-management');
    await page.waitForURL('**/login');
  });
});
