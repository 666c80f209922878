import { expect, request, test } from '@playwright/test';
import { AdminTemplatesPage } from './pages/AdminTemplatesPage';
import { LoginPage } from './pages/LoginPage';
import { TemplatesPage } from './pages/TemplatesPage';
import { ADMIN, API_VERSION, createUser, unique } from './support';

/** A sandbox user's business account and the token at the embedded simulator (sending/templateEvents.ts, providerRegistry.ts). */
const simulatorWaba = (userId: number) => `SIMULATOR_WABA_${userId}`;
const SIMULATOR_TOKEN = 'sandbox-token';

test.describe('Sync from Meta', () => {
  test('a template approved at Meta but never made in Sandesh comes in with Sync from Meta, by keyboard, and can be sent with', async ({ page, browser, baseURL }) => {
    const name = unique('made_in_manager');
    const user = await createUser(baseURL ?? '', { name: 'Meera Iyer' });
    // Made in "WhatsApp Manager": straight at the simulator's Meta API, reviewed there.
    const meta = await request.newContext({ baseURL, extraHTTPHeaders: { authorization: `Bearer ${SIMULATOR_TOKEN}` } });
    const created = await meta.post(`/simulator/${API_VERSION}/${simulatorWaba(user.id)}/message_templates`, {
      data: { name, language: 'en_US', category: 'UTILITY', components: [{ type: 'BODY', text: 'Your parcel {{1}} is on its way', example: { body_text: [['PX-42']] } }] },
    });
    expect(created.ok()).toBe(true);
    await expect
      .poll(async () => {
        const listed = (await (await meta.get(`/simulator/${API_VERSION}/${simulatorWaba(user.id)}/message_templates?name=${name}`)).json()) as { data: { status: string }[] };
        return listed.data[0]?.status;
      }, { timeout: 20_000 })
      .toBe('APPROVED');
    await meta.dispose();

    const login = new LoginPage(page);
    await login.goto();
    await login.login(user.username, user.password);
    await page.waitForURL('**/user/dashboard');

    const templates = new TemplatesPage(page);
    await templates.goto();
    await expect(templates.card(name)).toHaveCount(0);
    await templates.syncFromMeta.focus();
    await page.keyboard.press('Enter');
    await expect(page.getByText(/^Sync from Meta: [\d,]+ imported, [\d,]+ updated, [\d,]+ unchanged, [\d,]+ failed$/)).toBeVisible();
    await expect(templates.syncFromMeta).toBeEnabled();
    await templates.expectStatus(name, 'Approved');
    await expect(templates.card(name).getByText('Imported from Meta', { exact: true })).toBeVisible();

    const usable = await page.request.get('/api/whatsapp/templates?language=en_US&exclude_auth=true');
    const body = (await usable.json()) as { data: { name: string }[] };
    expect(body.data.map((template) => template.name)).toContain(name);

    // The administrator syncs the same user from the per-user templates page: nothing new to import.
    const adminContext = await browser.newContext();
    const adminPage = await adminContext.newPage();
    const adminLogin = new LoginPage(adminPage);
    await adminLogin.goto();
    await adminLogin.login(ADMIN.username, ADMIN.password);
    await adminPage.waitForURL('**/admin/dashboard');
    const review = new AdminTemplatesPage(adminPage);
    await review.openFromTable(user.username);
    await expect(adminPage.getByRole('row').filter({ hasText: name })).toBeVisible();
    await adminPage.getByRole('button', { name: 'Sync from Meta' }).click();
    await expect(adminPage.getByText(/^Sync from Meta: 0 imported, [\d,]+ updated, [\d,]+ unchanged, [\d,]+ failed$/)).toBeVisible();
    await adminContext.close();
  });
});
