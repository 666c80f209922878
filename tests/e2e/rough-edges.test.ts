import { expect, test, type Page } from '@playwright/test';
import { messages } from '@shared/messages';
import { LoginPage } from './pages/LoginPage';
import { QuickSendPage } from './pages/QuickSendPage';
import { Toasts } from './pages/Toasts';
import { approvedTemplate, PNG_PIXEL, testPhone } from './sending-support';
import { createUser, latestCode, uniquePhone } from './support';

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

test.describe('rough edges (issue 18)', () => {
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
