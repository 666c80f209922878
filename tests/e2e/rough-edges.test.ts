import { expect, request, test, type Page } from '@playwright/test';
import { fillMessage, messages } from '@shared/messages';
import { AdminTemplateQueuePage } from './pages/AdminTemplateQueuePage';
import { AdminUserSettingsPage } from './pages/AdminUserSettingsPage';
import { LoginPage } from './pages/LoginPage';
import { QuickSendPage } from './pages/QuickSendPage';
import { Toasts } from './pages/Toasts';
import { WalletPage } from './pages/WalletPage';
import { approvedTemplate, PNG_PIXEL, testPhone } from './sending-support';
import { ADMIN, adminApi, createUser, latestCode, unique, uniquePhone } from './support';

const p = messages.profile;

async function signIn(page: Page, user: { username: string; password: string }) {
  const login = new LoginPage(page);
  await login.goto();
  await login.login(user.username, user.password);
  await page.waitForURL('**/user/dashboard');
}

/** Whether two boxes overlap. */
function overlaps(a: { x: number; y: number; width: number; height: number }, b: { x: number; y: number; width: number; height: number }): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

test.describe('rough edges', () => {
  test('each screen names itself in the page header, and the profile speaks of the wallet', async ({ page, baseURL }) => {
    await signIn(page, await createUser(baseURL ?? ''));
    const title = page.locator('header h1');
    for (const [path, expected] of [
      ['/user/dashboard', 'Dashboard'],
      ['/user/wallet', 'Wallet'],
      ['/user/profile', 'Profile'],
      ['/user/manage-reports', 'Reports'],
      ['/user/customize-message', 'Personalised Messages'],
    ] as const) {
      await page.goto(path);
      await expect(title).toHaveText(expected);
    }
    await page.goto('/user/profile');
    await expect(page.getByText(p.walletBalance, { exact: true })).toBeVisible();
    await expect(page.getByText('SMS Credits')).toHaveCount(0);
  });

  test('toasts sit bottom right clear of the balance and avatar, a later success replaces the error, and errors go after 5 s', async ({ page, baseURL }) => {
    const taken = await createUser(baseURL ?? '');
    const user = await createUser(baseURL ?? '');
    await signIn(page, user);
    const toasts = new Toasts(page);
    await page.goto('/user/profile');

    // GSTIN: checked before saving (shape and check character).
    await page.getByRole('button', { name: 'Edit', exact: true }).click();
    await page.getByLabel(p.businessNameLabel, { exact: true }).fill('Asha Traders');
    await page.getByLabel(p.gstinLabel, { exact: true }).fill('27AAPFU0939F1ZA');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(page.getByText(p.gstinInvalid)).toBeVisible();

    // A server refusal (e-mail taken) toasts an error...
    await page.getByLabel(p.gstinLabel, { exact: true }).fill('27aapfu0939f1zv');
    await page.getByLabel('Email', { exact: true }).fill(taken.email);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(toasts.errors.filter({ hasText: messages.auth.emailTaken })).toBeVisible();
    await expect(toasts.region).toHaveAttribute('data-y-position', 'bottom');
    await expect(toasts.region).toHaveAttribute('data-x-position', 'right');
    const toastBox = await toasts.errors.first().boundingBox();
    for (const covered of [page.getByTestId('credits-balance'), page.locator('header').first().getByRole('button').last()]) {
      const box = await covered.boundingBox();
      expect(toastBox && box && overlaps(toastBox, box)).toBe(false);
    }

    // ...which the success of the same action replaces, not piles behind.
    await page.getByLabel('Email', { exact: true }).fill(`${user.username}.new@example.in`);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(toasts.successes.filter({ hasText: messages.auth.profileUpdated })).toBeVisible();
    await expect(toasts.errors).toHaveCount(0);
    await expect(page.getByLabel(p.gstinLabel, { exact: true })).toHaveValue('27AAPFU0939F1ZV');
    await expect(page.getByLabel(p.businessNameLabel, { exact: true })).toHaveValue('Asha Traders');

    // An error toast goes by itself (5 s, like the others).
    await page.getByRole('button', { name: 'Edit', exact: true }).click();
    await page.getByLabel('Email', { exact: true }).fill(taken.email);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(toasts.errors).toHaveCount(1);
    await page.mouse.move(0, 0);
    await expect(toasts.errors).toHaveCount(0, { timeout: 15_000 });
  });

  test('a correct code after a wrong one leaves no "Invalid OTP" toast behind', async ({ page, baseURL }) => {
    const phone = uniquePhone();
    const user = await createUser(baseURL ?? '', { phoneNumber: phone });
    const login = new LoginPage(page);
    const toasts = new Toasts(page);
    await login.goto();
    await login.requestCode(user.username, phone);
    await expect(toasts.withText(messages.auth.otpSent)).toBeVisible();
    const code = await latestCode(baseURL ?? '', phone);
    await login.verifyCode(code === '000000' ? '111111' : '000000');
    await expect(toasts.errors.filter({ hasText: messages.auth.otpInvalid })).toBeVisible();
    await login.verifyCode(code);
    await expect(toasts.successes.filter({ hasText: messages.auth.otpVerified })).toBeVisible();
    await expect(toasts.withText(messages.auth.otpInvalid)).toHaveCount(0);
  });

  test('the "requires an image header" error goes once the image is chosen, and bold shows as bold in the previews and the cost dialog', async ({ page, baseURL }) => {
    const user = await createUser(baseURL ?? '');
    const template = `bold_offer_${Date.now()}`;
    await approvedTemplate(baseURL ?? '', user, { name: template, category: 'MARKETING', bodyText: '*Big* offer for {{1}}, _today_ only', variableExamples: { '1': 'Priya' }, headerImage: PNG_PIXEL });
    await signIn(page, user);
    const toasts = new Toasts(page);
    const quick = new QuickSendPage(page);
    await quick.goto();
    await quick.template.selectOption({ label: template.replace(/_/g, ' ') });
    await quick.recipients.fill(testPhone());
    await quick.variable('1').fill('Asha');
    await quick.sendButton.click();
    await expect(toasts.withText(messages.sending.imageRequired)).toBeVisible();
    await quick.headerImageInput.setInputFiles({ name: 'banner.png', mimeType: 'image/png', buffer: PNG_PIXEL });
    await expect(toasts.withText(messages.sending.imageRequired)).toHaveCount(0);

    for (const place of [quick.preview, quick.campaignPreview]) {
      await expect(place.locator('[data-format="bold"]').filter({ hasText: 'Big' })).toBeVisible();
      await expect(place).not.toContainText('*Big*');
    }
    await quick.sendButton.click();
    await expect(quick.costDialog).toBeVisible();
    await expect(quick.costDialog.locator('[data-format="bold"]')).toHaveText('Big');
    await expect(quick.costDialog.locator('[data-format="italic"]')).toHaveText('today');
    await expect(quick.costDialog).not.toContainText('*Big*');
  });
});

/** The id of a user the e2e admin can see. */
async function userIdOf(baseURL: string, username: string): Promise<number> {
  const api = await adminApi(baseURL);
  const body = (await (await api.get('/api/admin/users')).json()) as { users: { id: number; username: string }[] };
  await api.dispose();
  const id = body.users.find((user) => user.username === username)?.id;
  if (id === undefined) throw new Error(`no user ${username}`);
  return id;
}

async function signInAsAdmin(page: Page) {
  const login = new LoginPage(page);
  await login.goto();
  await login.login(ADMIN.username, ADMIN.password);
  await page.waitForURL('**/admin/dashboard');
}

test.describe('rough edges a customer found', () => {
  test('the custom pricing hint says what the switch does in the state it is in', async ({ page, baseURL }) => {
    const user = await createUser(baseURL ?? '');
    await signInAsAdmin(page);
    const settings = new AdminUserSettingsPage(page);
    await settings.goto(String(await userIdOf(baseURL ?? '', user.username)));
    await settings.openTab('Pricing');
    const hint = page.locator('#custom-pricing-hint');
    await expect(settings.customPricing).not.toBeChecked();
    await expect(hint).toHaveText(messages.pricing.customPricingOffHint);
    await settings.customPricing.focus();
    await page.keyboard.press('Space');
    await expect(settings.customPricing).toBeChecked();
    await expect(hint).toHaveText(messages.pricing.customPricingOnHint);
  });

  test('the Template Review table shows Reject within a 1366 px wide window, and it works', async ({ page, baseURL }) => {
    await page.setViewportSize({ width: 1366, height: 768 });
    const base = baseURL ?? '';
    const tag = unique('wide').toLowerCase();
    const owner = await createUser(base, { name: 'Venkataramanan Subramaniam Iyer', username: `${tag}_owner_with_a_long_username` });
    const name = `${tag}_${'seasonal_clearance_offer_'.repeat(3)}`.slice(0, 60).replace(/_+$/, '');
    const api = await request.newContext({ baseURL: base });
    expect((await api.post('/api/auth/login', { data: { username: owner.username, password: owner.password } })).ok()).toBe(true);
    const created = await api.post('/api/templates', {
      multipart: { name, category: 'MARKETING', language: 'en_US', headerType: 'none', bodyText: 'Hello {{1}}, your order is ready', variableExamples: '{"1":"Asha"}', submit_to_whatsapp: 'true' },
    });
    expect(created.status(), await created.text()).toBe(201);
    await api.dispose();

    await signInAsAdmin(page);
    const queue = new AdminTemplateQueuePage(page);
    await queue.open();
    await queue.search.fill(tag);
    await expect(queue.bodyRows()).toHaveCount(1);
    const reject = page.getByRole('button', { name: `Reject ${name}`, exact: true });
    await expect(reject).toBeInViewport({ ratio: 1 });
    const box = await reject.boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= 1366).toBe(true);
    await reject.click();
    await expect(queue.reviewDialog.getByRole('button', { name: 'Confirm Reject', exact: true })).toBeVisible();
  });

  test('the wallet page does not scroll sideways on a 390 px wide phone', async ({ page, baseURL }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await signIn(page, await createUser(baseURL ?? ''));
    const wallet = new WalletPage(page);
    await wallet.goto();
    await expect(page.locator('header h1')).toHaveText('Wallet');
    // Every part drawn, the history with its entry included.
    await expect(wallet.historyRows.first()).toBeVisible();
    const overflow = await page.evaluate<{ scrollWidth: number; clientWidth: number }>(
      '({ scrollWidth: document.scrollingElement.scrollWidth, clientWidth: document.scrollingElement.clientWidth })',
    );
    expect(overflow.scrollWidth).toBeLessThanOrEqual(overflow.clientWidth);
  });

  test('the dashboard and the reports say what their message counts count', async ({ page, baseURL }) => {
    await signIn(page, await createUser(baseURL ?? ''));
    await expect(page.getByText(messages.reportsScreen.messagesThisMonthCaption)).toBeVisible();
    await page.goto('/user/manage-reports');
    await expect(page.getByText(messages.reportsScreen.totalMessagesCaption)).toBeVisible();
  });

  test('deleting a user who holds a balance warns with the amount, then deletes with it confirmed', async ({ page, baseURL }) => {
    const base = baseURL ?? '';
    const user = await createUser(base);
    const api = await adminApi(base);
    const id = await userIdOf(base, user.username);
    const added = await api.post(`/api/admin/users/${id}/credits`, { data: { mode: 'add', amount: 122456.5, reason: 'Bank transfer' }, headers: { 'Idempotency-Key': unique('adjust') } });
    expect(added.ok(), await added.text()).toBe(true);
    await api.dispose();

    await signInAsAdmin(page);
    await page.getByPlaceholder(/Search/i).fill(user.username);
    await page.getByRole('button', { name: `Actions for ${user.username}` }).click();
    await page.getByRole('menuitem', { name: /Delete/ }).click();
    const dialog = page.getByRole('alertdialog');
    await expect(dialog).toContainText(fillMessage(messages.admin.deleteUserHoldsBalance, { amount: '₹1,23,456.50' }));
    await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByText(messages.admin.userDeleted)).toBeVisible();
    await expect(page.getByRole('row').filter({ hasText: user.username })).toHaveCount(0);
  });
});
