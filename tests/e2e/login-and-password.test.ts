import { expect, request, test } from '@playwright/test';
import { AUTH } from '@shared/constants';
import { fillMessage, messages } from '@shared/messages';
import { LoginPage } from './pages/LoginPage';
import { ProfileSecurityTab } from './pages/ProfileSecurityTab';
import { createUser, latestCode, uniquePhone } from './support';

/** How many messages the simulator holds for a phone. */
async function messagesTo(baseURL: string, phone: string): Promise<number> {
  const api = await request.newContext({ baseURL });
  const body = (await (await api.get(`/simulator/messages?to=${phone}`)).json()) as { data: unknown[] };
  await api.dispose();
  return body.data.length;
}

test.describe('login: resend code', () => {
  test('the OTP step counts down 60 seconds, then offers Resend code, and the new code works', async ({ page, baseURL }) => {
    const base = baseURL ?? '';
    const phone = uniquePhone();
    const user = await createUser(base, { phoneNumber: phone });
    // The page's clock is driven by the test: no waiting a real minute.
    await page.clock.install();
    const login = new LoginPage(page);
    await login.goto();
    // The page appears on a timer: see it before the clock stops. From then on the page's clock
    // moves only when the test moves it. The countdown counts from the moment the code was sent:
    // with the clock running, a busy machine took seconds off it between two steps ("Resend code
    // in 29s" where 30 s had been fast-forwarded, two end-to-end files at once, 2026-11-28).
    await expect(page.getByRole('button', { name: 'Forgot Password?' })).toBeVisible();
    await page.clock.pauseAt(new Date(Date.now() + 1_000));
    await login.requestCode(user.username, phone);
    await expect(page.getByText(messages.auth.otpSent).first()).toBeVisible();
    const countdown = page.getByTestId('otp-resend-countdown');
    await expect(countdown).toHaveText(fillMessage(messages.auth.resendCodeIn, { seconds: AUTH.otpResendAfterSeconds }));
    const resend = page.getByRole('button', { name: messages.auth.resendCode });
    await expect(resend).toHaveCount(0);

    await page.clock.fastForward(30_000);
    await expect(countdown).toHaveText(fillMessage(messages.auth.resendCodeIn, { seconds: AUTH.otpResendAfterSeconds - 30 }));
    await expect(resend).toHaveCount(0);
    await page.clock.fastForward(31_000);
    await expect(resend).toBeVisible();

    const sentBefore = await messagesTo(base, phone);
    await resend.click();
    await expect(page.getByText(messages.auth.otpResent).first()).toBeVisible();
    await expect.poll(() => messagesTo(base, phone)).toBe(sentBefore + 1);
    // The countdown starts again for the next code.
    await expect(countdown).toBeVisible();

    await login.verifyCode(await latestCode(base, phone));
    await expect(page.getByText(messages.auth.otpVerified).first()).toBeVisible();
  });
});

test.describe('profile: change password', () => {
  test('a user changes their own password with the current one; other sessions end, this one stays', async ({ page, browser, baseURL }) => {
    const base = baseURL ?? '';
    const user = await createUser(base);
    const elsewhere = await request.newContext({ baseURL: base });
    expect((await elsewhere.post('/api/auth/login', { data: { username: user.username, password: user.password } })).ok()).toBe(true);

    const login = new LoginPage(page);
    await login.goto();
    await login.login(user.username, user.password);
    await page.waitForURL('**/user/dashboard');
    const security = new ProfileSecurityTab(page);
    await security.open();

    // Checked in the browser first: the confirmation must match.
    await security.fill({ current: user.password, next: 'brand-new-pass-7', confirm: 'brand-new-pass-8' });
    await security.submit.click();
    await expect(security.form.getByText(messages.validation.passwordsDoNotMatch)).toBeVisible();

    // The server judges the current password, on its field.
    await security.fill({ current: 'not-the-password', next: 'brand-new-pass-7', confirm: 'brand-new-pass-7' });
    await security.submit.click();
    await expect(security.form.getByText(messages.auth.currentPasswordIncorrect).first()).toBeVisible();
    await expect(security.current).toHaveAttribute('aria-invalid', 'true');

    await security.fill({ current: user.password, next: 'brand-new-pass-7', confirm: 'brand-new-pass-7' });
    await security.submit.click();
    await expect(page.getByText(messages.auth.passwordChanged).first()).toBeVisible();
    await expect(security.current).toHaveValue('');

    // This session goes on; the other one has ended.
    expect((await page.request.get('/api/auth/me')).status()).toBe(200);
    expect((await elsewhere.get('/api/auth/me')).status()).toBe(401);
    await elsewhere.dispose();

    const fresh = await browser.newContext({ baseURL: base });
    const freshPage = await fresh.newPage();
    const freshLogin = new LoginPage(freshPage);
    await freshLogin.goto();
    await freshLogin.login(user.username, user.password);
    await expect(freshPage.getByText(messages.auth.invalidCredentials).first()).toBeVisible();
    await freshLogin.password.fill('brand-new-pass-7');
    await freshLogin.signIn.click();
    await freshPage.waitForURL('**/user/dashboard');
    await fresh.close();
  });
});
