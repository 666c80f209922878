import { expect, test } from '@playwright/test';
import { messages } from '@shared/messages';
import { AdminTemplatesPage } from './pages/AdminTemplatesPage';
import { LoginPage } from './pages/LoginPage';
import { QuickSendPage } from './pages/QuickSendPage';
import { TemplateBuilderPage } from './pages/TemplateBuilderPage';
import { TemplatesPage } from './pages/TemplatesPage';
import { PNG_PIXEL, testPhone } from './sending-support';
import { ADMIN, createUser, unique } from './support';

const t = messages.templates;

test.describe("a template's review at Meta", () => {
  test('a user builds an image template, the admin approves it, it is in review at Meta, Meta approves it and a quick send of it is delivered', async ({
    page,
    browser,
    baseURL,
  }) => {
    const user = await createUser(baseURL ?? '', { name: 'Meera Pillai' });
    const name = unique('monsoon_sale');

    // The user builds a template with an image header and submits it.
    const login = new LoginPage(page);
    await login.goto();
    await login.login(user.username, user.password);
    await page.waitForURL('**/user/dashboard');
    const builder = new TemplateBuilderPage(page);
    await builder.gotoCreate();
    await builder.name.fill(name);
    await builder.category.selectOption('MARKETING');
    await builder.language.selectOption('en_US');
    await builder.headerType.selectOption('image');
    await page.getByLabel('Header File', { exact: true }).setInputFiles({ name: 'monsoon.png', mimeType: 'image/png', buffer: PNG_PIXEL });
    await builder.bodyText.fill('Namaste! Our monsoon sale starts');
    await builder.addVariable();
    await builder.example('1').fill('Friday');
    await builder.save('Create & Submit');
    const list = new TemplatesPage(page);
    await list.expectStatus(name, 'Pending');

    // The admin approves it: our half of the review is done and it goes to Meta (the simulator).
    const adminContext = await browser.newContext();
    const adminPage = await adminContext.newPage();
    const adminLogin = new LoginPage(adminPage);
    await adminLogin.goto();
    await adminLogin.login(ADMIN.username, ADMIN.password);
    await adminPage.waitForURL('**/admin/dashboard');
    const review = new AdminTemplatesPage(adminPage);
    await review.openFromTable(user.username);
    await review.approve(name);
    await expect(adminPage.getByText(t.approvedSentToMeta, { exact: true })).toBeVisible();
    // In review at Meta, since the time it was submitted (Indian date format), with nothing left to review.
    await expect(review.row(name)).toContainText(t.inReviewAtMeta);
    await expect(review.row(name).getByTestId('meta-review-note')).toContainText(/In review at Meta since \d{1,2} \w{3} \d{4}, \d{1,2}:\d{2} (am|pm)/);
    await expect(review.approveButton(name)).toHaveCount(0);

    // Meta's review approves it; both pages follow without a reload.
    await expect(review.row(name)).toContainText('Approved', { timeout: 20_000 });
    await adminContext.close();
    await list.goto();
    await list.expectStatus(name, 'Approved');

    // A quick send with it is delivered.
    const recipient = testPhone();
    const quick = new QuickSendPage(page);
    await quick.goto();
    await quick.template.selectOption({ label: name.replace(/_/g, ' ') });
    await quick.recipients.fill(recipient);
    await quick.headerImageInput.setInputFiles({ name: 'banner.png', mimeType: 'image/png', buffer: PNG_PIXEL });
    await quick.variable('1').fill('Monday');
    await quick.sendButton.click();
    await quick.confirmSend();
    await expect(quick.resultDialog.getByRole('heading', { name: messages.sendScreens.campaignAccepted })).toBeVisible();
    const progress = quick.resultDialog.getByTestId('campaign-progress');
    await expect(progress.getByTestId('campaign-status')).toHaveText('Completed', { timeout: 30_000 });
    await expect(progress.getByTestId('campaign-processed')).toHaveText('1 of 1 processed (100%)');
    const delivered = await page.request.get(`/simulator/messages?to=${recipient}`);
    expect(delivered.ok()).toBe(true);
    expect(JSON.stringify(await delivered.json())).toContain(name);
  });
});
