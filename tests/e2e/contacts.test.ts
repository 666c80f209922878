import { expect, test } from '@playwright/test';
import { fillMessage, messages } from '@shared/messages';
import { formatPhone } from '@shared/phone';
import { ContactImportPage, ContactsPage } from './pages/ContactsPage';
import { QuickSendPage } from './pages/QuickSendPage';
import { SegmentsPage } from './pages/SegmentsPage';
import { Toasts } from './pages/Toasts';
import { approvedTemplate, signedInUser, testPhone } from './sending-support';
import { unique } from './support';

const s = messages.contactScreens;

test.describe('contacts and audiences', () => {
  test('a user imports a CSV of contacts, tags one, builds a segment, sends to it, and sees it in the contact history', async ({ page, baseURL }) => {
    test.setTimeout(120_000);
    const user = await signedInUser(page, baseURL ?? '', 100, { name: 'Kavya Rao', prefix: 'contacts' });
    const template = unique('plan_ready').toLowerCase().replace(/[^a-z0-9_]/g, '_');
    await approvedTemplate(baseURL ?? '', user, { name: template, category: 'UTILITY', bodyText: 'Hello {{1}}, your {{2}} plan is ready', variableExamples: { '1': 'Asha', '2': 'gold' } });
    const toasts = new Toasts(page);
    const asha = testPhone('7');
    const ravi = testPhone('8');

    // Import: the columns are guessed, every contact tagged, the bad row reported and downloadable.
    await page.getByRole('link', { name: s.menuItem, exact: true }).first().click();
    const contacts = new ContactsPage(page);
    await expect(contacts.heading).toBeVisible();
    await expect(page.getByText(s.empty)).toBeVisible();
    await contacts.importLink.click();
    const importer = new ContactImportPage(page);
    await importer.file.setInputFiles({
      name: 'customers.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(`Mobile,Name,City,Plan\n${asha},Asha Verma,Pune,gold\n${ravi},Ravi Kumar,Delhi,\nnot-a-number,Nobody,Agra,silver\n`),
    });
    await expect(importer.useOf('Mobile')).toHaveValue('phone');
    await expect(importer.useOf('Name')).toHaveValue('name');
    await expect(importer.useOf('City')).toHaveValue('attribute');
    await importer.extraTags.fill('diwali');
    await importer.start.click();
    await expect(page.getByText(importer.resultText({ created: 2, updated: 0, skipped: 0, invalid: 1 }))).toBeVisible();
    const download = page.waitForEvent('download');
    await importer.downloadInvalid.click();
    expect((await download).suggestedFilename()).toBe(s.invalidRowsFile);

    // The list shows both, grouped by the Indian rule, tagged; the tag narrows it.
    await contacts.goto();
    await expect(contacts.row('Asha Verma')).toContainText(formatPhone(asha));
    await expect(contacts.row('Ravi Kumar')).toContainText('diwali');
    await contacts.search.fill('Ravi');
    await expect(contacts.row('Asha Verma')).toHaveCount(0);
    await contacts.search.fill('');

    // Tag one: Asha becomes a VIP.
    const details = await contacts.open('Asha Verma');
    await expect(details.attribute('city')).toHaveText('Pune');
    await details.edit.click();
    await details.tagsField.fill('diwali, vip');
    await details.save.click();
    await expect(toasts.withText(s.saved)).toBeVisible();
    await expect(details.tags).toContainText('vip');

    // A segment: the count follows the filter as it is edited, then it is saved.
    const segments = new SegmentsPage(page);
    await segments.goto();
    await segments.tagsAny.fill('diwali');
    await expect(page.getByText(segments.countText(2, 0))).toBeVisible();
    await segments.tagsAll.fill('vip');
    await expect(page.getByText(segments.countText(1, 0))).toBeVisible();
    await segments.name.fill('Diwali VIPs');
    await segments.save.click();
    await expect(toasts.withText(fillMessage(s.segmentSaved, { name: 'Diwali VIPs' }))).toBeVisible();
    await expect(segments.saved).toContainText('Diwali VIPs');

    // "Send to contacts" opens Quick Send on its Contacts source: the segment chosen, variables from
    // attributes with fallbacks, the dry run's preview with a sample message, then the send.
    await contacts.goto();
    await page.getByRole('link', { name: s.sendToContacts, exact: true }).click();
    const quick = new QuickSendPage(page);
    await expect(quick.fromContacts).toBeChecked();
    await expect(quick.number).not.toHaveValue('');
    await quick.template.selectOption({ label: template.replace(/_/g, ' ') });
    const audience = quick.contacts;
    await audience.segment.selectOption({ label: 'Diwali VIPs' });
    await audience.source('1').selectOption('attr:name');
    await audience.fallback('1').fill('there');
    await audience.source('2').selectOption('attr:plan');
    await audience.fallback('2').fill('basic');
    await quick.campaignName.fill('Diwali VIP offer');
    // The side panel cannot count an audience before the server's dry run, and says so.
    await expect(quick.summaryRow('Recipients')).toHaveText(s.countedOnPreview);
    await audience.previewButton.click();
    await expect(audience.figure(s.previewRecipients)).toHaveText('1');
    await expect(quick.summaryRow('Recipients')).toHaveText('1');
    await expect(quick.campaignPreview).toContainText('Hello Asha Verma, your gold plan is ready');
    await expect(audience.figure(s.previewOptedOut)).toHaveText('0');
    await expect(audience.sample).toContainText('Hello Asha Verma, your gold plan is ready');
    await expect(audience.sample).toContainText(formatPhone(asha));
    await audience.send.click();
    await expect(toasts.withText(fillMessage(s.sent, { count: 1, opted_out: 0 }))).toBeVisible();

    // The contact's page shows the campaign in its history, and the send counted.
    await contacts.goto();
    const sent = await contacts.open('Asha Verma');
    await expect(async () => {
      await page.reload();
      await expect(sent.history).toContainText('Diwali VIP offer', { timeout: 1_000 });
      await expect(sent.count('sent')).toHaveText('1', { timeout: 1_000 });
    }).toPass({ timeout: 30_000 });
  });
});
