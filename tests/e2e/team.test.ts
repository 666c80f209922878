import { expect, test } from '@playwright/test';
import { fillMessage, messages } from '@shared/messages';
import { signedInUser } from './sending-support';
import { createUser } from './support';
import { LoginPage } from './pages/LoginPage';

const t = messages.team;
const r = messages.reportsScreen;

/**
 * Teams end to end: the owner invites an analyst from the Team screen and copies the link; the
 * analyst signs in, opens it, joins, sees the reports (narrowed by the member who sent) and no
 * send menu, and the server refuses a send with the role it needs.
 */
test('the owner invites an analyst, who sees the reports and cannot send', async ({ page, browser, baseURL }) => {
  await signedInUser(page, baseURL ?? '', 25, { name: 'Team Owner', prefix: 'team_owner' });
  const analyst = await createUser(baseURL ?? '', { name: 'Asha Analyst' });

  await page.goto('/user/team');
  await page.getByLabel(t.emailLabel).fill(analyst.email);
  await page.getByLabel(t.roleLabel, { exact: true }).selectOption('analyst');
  await page.getByRole('button', { name: t.inviteButton }).click();
  const link = (await page.getByTestId('invite-link').textContent()) ?? '';
  expect(link).toMatch(/\/invite\/[A-Za-z0-9_-]{20,}$/);
  // The product sends no e-mail: an e-mail invitation is a link for the owner to share.
  await expect(page.getByTestId('invite-delivery')).toHaveText(t.inviteReady);
  await expect(page.getByText(analyst.email)).toBeVisible();
  await expect(page.getByText(t.deliveryLinkOnly, { exact: true })).toBeVisible();

  const context = await browser.newContext({ baseURL });
  const analystPage = await context.newPage();
  const login = new LoginPage(analystPage);
  await login.goto();
  await login.login(analyst.username, analyst.password);
  await analystPage.waitForURL('**/user/dashboard');
  await analystPage.goto(new URL(link).pathname);
  await analystPage.getByRole('button', { name: t.acceptButton }).click();
  await analystPage.waitForURL('**/user/dashboard');
  await expect(analystPage.getByTestId('account-switcher')).toBeVisible();

  const nav = analystPage.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link', { name: 'Manage Reports' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'WhatsApp Quick Send' })).toHaveCount(0);
  await expect(nav.getByRole('link', { name: t.menuItem })).toHaveCount(0);
  await analystPage.goto('/user/manage-reports');
  await expect(analystPage.getByRole('heading', { name: 'Manage Reports' }).first()).toBeVisible();
  // Two members now: the report can be narrowed to the one who sent.
  const sentBy = analystPage.getByLabel(r.senderFilter, { exact: true });
  await expect(sentBy.locator('option')).toHaveText([r.allSenders, 'Asha Analyst', 'Team Owner']);
  await sentBy.selectOption({ label: 'Team Owner' });
  await expect(analystPage).toHaveURL(/[?&]sentBy=\d+/);
  await expect(analystPage.getByTestId('filter-chip')).toHaveText(['Sent by: Team Owner']);

  const send = await analystPage.request.post('/api/whatsapp/quick-send', { data: {} });
  expect(send.status()).toBe(403);
  expect(await send.json()).toMatchObject({ code: 'role_required', error: fillMessage(t.roleRequired, { role: 'analyst', roles: 'owner or manager' }) });
  await context.close();
});

test('the owner of an empty wallet deletes the account from the danger zone, after a wrong password', async ({ page, baseURL }) => {
  const owner = await signedInUser(page, baseURL ?? '', 0, { name: 'Closing Owner', prefix: 'team_close' });
  await page.goto('/user/team');
  await page.getByRole('button', { name: t.deleteAccountButton }).click();
  const dialog = page.getByRole('dialog', { name: t.deleteAccountConfirmTitle });
  await dialog.getByLabel(t.deleteAccountPasswordLabel).fill('not-my-password');
  await dialog.getByRole('button', { name: t.deleteAccountConfirmButton }).click();
  await expect(dialog.getByText(messages.auth.currentPasswordIncorrect).first()).toBeVisible();

  await dialog.getByLabel(t.deleteAccountPasswordLabel).fill(owner.password);
  await dialog.getByRole('button', { name: t.deleteAccountConfirmButton }).click();
  await page.waitForURL('**/login');
  const again = await page.request.post('/api/auth/login', { data: { username: owner.username, password: owner.password } });
  expect(again.status()).toBe(401);
});
