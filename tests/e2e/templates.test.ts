import { expect, request, test, type Page } from '@playwright/test';
import { messages } from '@shared/messages';
import { AdminTemplatesPage } from './pages/AdminTemplatesPage';
import { LoginPage } from './pages/LoginPage';
import { TemplateBuilderPage } from './pages/TemplateBuilderPage';
import { TemplatesPage } from './pages/TemplatesPage';
import { ADMIN, adminApi, createUser, unique } from './support';

const t = messages.templates;

/** A 1x1 PNG: enough for the server to recognise an image by its content. */
const PNG_PIXEL = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

/** Names of the templates the signed-in user may send with, as the send screens ask for them. */
async function usableTemplateNames(page: Page): Promise<string[]> {
  const response = await page.request.get('/api/whatsapp/templates?language=en_US&exclude_auth=true');
  expect(response.ok()).toBe(true);
  const body = (await response.json()) as { data: { name: string }[] };
  return body.data.map((template) => template.name);
}

test.describe('template review', () => {
  test('a user builds a marketing template, an admin rejects it with a reason, the user fixes and resubmits it, and once approved it can be sent', async ({
    page,
    browser,
    baseURL,
  }) => {
    const user = await createUser(baseURL ?? '', { name: 'Asha Verma' });
    const name = unique('diwali_offer');
    const reason = 'The coupon terms are missing; say how long the offer runs.';

    // The user builds the template and saves it as a draft.
    const login = new LoginPage(page);
    await login.goto();
    await login.login(user.username, user.password);
    await page.waitForURL('**/user/dashboard');

    const list = new TemplatesPage(page);
    const builder = new TemplateBuilderPage(page);
    await list.goto();
    await list.createTemplate.click();
    await page.waitForURL('**/user/templates/create');

    await builder.name.fill(name);
    await builder.category.selectOption('MARKETING');
    await builder.language.selectOption('en_US');
    await builder.headerType.selectOption('text');
    await builder.headerText.fill('Diwali offers are here');
    await builder.bodyText.fill('Namaste! Your festive coupon is');
    await builder.addVariable();
    await expect(builder.bodyText).toHaveValue('Namaste! Your festive coupon is {{1}}');
    await builder.example('1').fill('DIWALI20');
    await builder.footerText.fill('Reply STOP to opt out');
    await builder.addButton();
    await builder.buttonType(1).selectOption('URL');
    await builder.buttonText(1).fill('Shop now');
    await builder.buttonUrl(1).fill('https://example.com/diwali');
    await builder.addButton();
    await builder.buttonType(2).selectOption('QUICK_REPLY');
    await builder.buttonText(2).fill('Not interested');
    await expect(builder.preview).toContainText('Namaste! Your festive coupon is DIWALI20');
    await builder.save('Save Draft');
    await expect(page.getByText(t.savedDraft)).toBeVisible();
    await list.expectStatus(name, 'Draft');

    // A draft can still be changed; then it goes for review and can no longer be edited.
    await list.edit(name);
    await expect(builder.bodyText).toHaveValue('Namaste! Your festive coupon is {{1}}');
    await expect(builder.example('1')).toHaveValue('DIWALI20');
    await builder.bodyText.fill('Namaste! Your festive coupon {{1}} gives 20% off.');
    await builder.save('Save Changes');
    await expect(page.getByText(t.updated)).toBeVisible();
    await list.expectStatus(name, 'Draft');
    await list.submit(name);
    await expect(page.getByText(t.submitted)).toBeVisible();
    await list.expectStatus(name, 'Pending');
    await expect(list.editButton(name)).toHaveCount(0);
    expect(await usableTemplateNames(page)).not.toContain(name);

    // The admin finds it through the user table and rejects it with a reason.
    const adminContext = await browser.newContext({ baseURL });
    const adminPage = await adminContext.newPage();
    const adminLogin = new LoginPage(adminPage);
    await adminLogin.goto();
    await adminLogin.login(ADMIN.username, ADMIN.password);
    await adminPage.waitForURL('**/admin/dashboard');

    const review = new AdminTemplatesPage(adminPage);
    await review.openFromTable(user.username);
    await expect(review.stat('Total')).toHaveText('1');
    await expect(review.stat('Pending Approval')).toHaveText('1');
    await expect(review.stat('Approved')).toHaveText('0');
    await expect(review.stat('Rejected')).toHaveText('0');
    await expect(review.row(name)).toContainText('Pending');
    await expect(review.row(name)).toContainText('Marketing');

    await review.openPreview(name);
    for (const text of ['Diwali offers are here', 'Namaste! Your festive coupon DIWALI20 gives 20% off.', 'Reply STOP to opt out', 'Shop now', 'Not interested']) {
      await expect(review.previewDialog.getByTestId('template-preview')).toContainText(text);
    }
    await expect(review.previewDialog).toContainText('https://example.com/diwali');
    await review.closePreview();

    await review.startReject(name);
    // The dialog opens on its reason field, so a keyboard user can type straight away.
    await expect(review.rejectionReason).toBeFocused();
    await review.confirmReject();
    await expect(review.reviewDialog.getByText(t.rejectionReasonRequired)).toBeVisible();
    // The failed check hands the focus back to the reason, described by its message.
    await expect(review.rejectionReason).toBeFocused();
    await expect(review.rejectionReason).toHaveAccessibleDescription(t.rejectionReasonRequired);
    await adminPage.keyboard.type(reason);
    await adminPage.keyboard.press('Tab');
    await adminPage.keyboard.press('Tab');
    await expect(review.reviewDialog.getByRole('button', { name: 'Confirm Reject', exact: true })).toBeFocused();
    await adminPage.keyboard.press('Enter');
    await expect(adminPage.getByText(t.rejected, { exact: true })).toBeVisible();
    await expect(review.reviewDialog).toBeHidden();
    await expect(review.row(name)).toContainText('Rejected');
    await expect(review.row(name)).toContainText(reason);
    await expect(review.approveButton(name)).toHaveCount(0);
    await expect(review.rejectButton(name)).toHaveCount(0);
    await expect(review.stat('Rejected')).toHaveText('1');
    await expect(review.stat('Pending Approval')).toHaveText('0');

    // The user reads the reason, fixes the template (back to draft) and submits it again.
    await list.goto();
    await list.expectStatus(name, 'Rejected');
    await expect(list.card(name)).toContainText(reason);
    await list.edit(name);
    await expect(page.getByText(reason)).toBeVisible();
    await builder.bodyText.fill('Namaste! Coupon {{1}} gives 20% off festive wear until 5 November.');
    await builder.save('Save Changes');
    await list.expectStatus(name, 'Draft');
    await list.submit(name);
    await expect(page.getByText(t.submitted)).toBeVisible();
    await list.expectStatus(name, 'Pending');

    // The admin approves it.
    await adminPage.reload();
    await expect(review.row(name)).toContainText('Pending');
    await expect(review.stat('Pending Approval')).toHaveText('1');
    await review.approve(name);
    // Our approval sends it to Meta (the simulator), whose review approves it a moment later.
    await expect(adminPage.getByText(t.approvedSentToMeta, { exact: true })).toBeVisible();
    await expect(review.reviewDialog).toBeHidden();
    await expect(review.row(name)).toContainText('Approved', { timeout: 20_000 });
    await expect(review.approveButton(name)).toHaveCount(0);
    await expect(review.stat('Approved')).toHaveText('1');
    await expect(review.stat('Pending Approval')).toHaveText('0');
    await expect(review.stat('Rejected')).toHaveText('0');
    await adminContext.close();

    // Now it is among the templates the user can send with.
    expect(await usableTemplateNames(page)).toContain(name);
    await list.goto();
    await list.expectStatus(name, 'Approved');
  });

  test('an admin previews an image header and an authentication template, and a decision another admin took first is refused with the server\'s words', async ({
    page,
    baseURL,
  }) => {
    const user = await createUser(baseURL ?? '', { name: 'Ravi Iyer' });
    const imageName = unique('festive_sale');
    const otpName = unique('login_code');

    // The user submits both through the API; the builder itself is covered above.
    const userApi = await request.newContext({ baseURL });
    expect((await userApi.post('/api/auth/login', { data: { username: user.username, password: user.password } })).ok()).toBe(true);
    const created = await userApi.post('/api/templates', {
      multipart: {
        name: imageName,
        category: 'MARKETING',
        language: 'en_US',
        headerType: 'image',
        headerMedia: { name: 'sale.png', mimeType: 'image/png', buffer: PNG_PIXEL },
        bodyText: 'Festive sale starts {{1}}',
        variableExamples: JSON.stringify({ '1': 'Friday' }),
        submit_to_whatsapp: 'true',
      },
    });
    expect(created.status()).toBe(201);
    const imageTemplate = ((await created.json()) as { data: { id: number } }).data;
    const otp = await userApi.post('/api/templates/authentication', {
      data: { name: otpName, language: 'en_US', otp_type: 'COPY_CODE', code_expiration_minutes: 5, add_security_recommendation: true },
    });
    expect(otp.status()).toBe(201);
    await userApi.dispose();

    const login = new LoginPage(page);
    await login.goto();
    await login.login(ADMIN.username, ADMIN.password);
    await page.waitForURL('**/admin/dashboard');
    const review = new AdminTemplatesPage(page);
    await review.openFromTable(user.username);
    await expect(review.stat('Pending Approval')).toHaveText('2');

    // The header file is fetched with the admin's session and shown in the bubble.
    await review.openPreview(imageName);
    const image = review.previewDialog.getByRole('img', { name: /Header image/ });
    await expect(image).toBeVisible();
    await expect(image).toHaveAttribute('src', /^data:image\/png/);
    // Decoded, not just addressed: a broken image has no natural width.
    await expect(image).toHaveJSProperty('naturalWidth', 1);
    await expect(review.previewDialog.getByTestId('template-preview')).toContainText('Festive sale starts Friday');
    await review.closePreview();

    // Authentication templates carry only flags; the preview writes Meta's text from them.
    await review.openPreview(otpName);
    const otpPreview = review.previewDialog.getByTestId('template-preview');
    await expect(otpPreview).toContainText('123456 is your verification code. For your security, do not share this code.');
    await expect(otpPreview).toContainText('This code expires in 5 minutes.');
    await expect(otpPreview).toContainText('Copy Code');
    await review.closePreview();

    // Another admin approves while this one has the dialog open: the server's message shows.
    await review.approveButton(imageName).click();
    const otherAdmin = await adminApi(baseURL ?? '');
    expect((await otherAdmin.put(`/api/admin/templates/${imageTemplate.id}/status`, { data: { status: 'APPROVED' } })).ok()).toBe(true);
    await otherAdmin.dispose();
    await review.reviewDialog.getByRole('button', { name: 'Confirm Approve', exact: true }).click();
    await expect(review.reviewDialog.getByRole('alert')).toHaveText(t.notPending);
    await review.reviewDialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(review.reviewDialog).toBeHidden();
    // The list was re-read: the row shows the other admin's decision and offers no actions.
    await expect(review.row(imageName)).toContainText('Approved', { timeout: 20_000 });
    await expect(review.approveButton(imageName)).toHaveCount(0);
    await expect(review.stat('Pending Approval')).toHaveText('1');
  });

  test('a user deletes a draft after confirming', async ({ page, baseURL }) => {
    const user = await createUser(baseURL ?? '');
    const login = new LoginPage(page);
    await login.goto();
    await login.login(user.username, user.password);
    await page.waitForURL('**/user/dashboard');
    const builder = new TemplateBuilderPage(page);
    const name = unique('to_delete');
    await builder.gotoCreate();
    await builder.name.fill(name);
    await builder.bodyText.fill('Temporary message');
    await builder.save('Save Draft');
    const templates = new TemplatesPage(page);
    await expect(templates.card(name)).toBeVisible();
    await templates.delete(name);
    await expect(page.getByText(t.deleted).first()).toBeVisible();
    await expect(templates.card(name)).toHaveCount(0);
    await page.reload();
    await expect(templates.card(name)).toHaveCount(0);
  });
});
