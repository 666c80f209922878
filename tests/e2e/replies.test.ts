import { expect, test } from '@playwright/test';
import { messages } from '@shared/messages';
import type { TSenderNumber } from '@shared/schemas/sending';
import { approvedTemplate, settledCampaign, signedInUser, testPhone } from './sending-support';
import { unique } from './support';

/**
 * The reply side end to end: a campaign goes out, the simulator's contact answers it, the answer
 * appears live in Replies, the user answers from the composer, the answer reaches the simulator,
 * and "Send again to… those who replied" shows its cost and sends a follow-up template.
 */
test('a reply arrives live, is answered inside the window, and its sender gets a follow-up', async ({ page, baseURL }) => {
  const user = await signedInUser(page, baseURL ?? '', 100, { name: 'Replies User', prefix: 'replies' });
  const template = unique('replies_offer');
  const followUp = unique('replies_price');
  await approvedTemplate(baseURL ?? '', user, { name: template, category: 'MARKETING', bodyText: 'Hello {{1}}, the new season is in', variableExamples: { '1': 'Meera' } });
  await approvedTemplate(baseURL ?? '', user, { name: followUp, category: 'UTILITY', bodyText: 'Hello {{1}}, here is the price list', variableExamples: { '1': 'Meera' } });
  const contact = testPhone();
  const campaignId = await settledCampaign(page.request, template, [contact]);
  const numbers = (await (await page.request.get('/api/whatsapp/numbers')).json()) as { data: TSenderNumber[] };

  await page.goto('/user/replies');
  await expect(page.getByText(messages.conversations.empty)).toBeVisible();
  // The contact answers from the simulator's inbox; the list follows over the live stream.
  const answered = await page.request.post('/simulator/inbox/messages', {
    data: { phone_number_id: numbers.data[0]?.phone_number_id, from: contact, name: 'Meera', text: 'Yes, send me the price' },
  });
  expect(answered.status(), await answered.text()).toBe(201);
  const row = page.getByTestId('conversation-row').filter({ hasText: 'Meera' });
  await expect(row).toContainText('Yes, send me the price');

  // The campaign filter keeps it; the thread shows the answered campaign.
  await page.getByLabel(messages.conversations.filterCampaign).selectOption(String(campaignId));
  await expect(row).toBeVisible();
  await row.click();
  await expect(page.getByTestId('conversation-thread')).toContainText('Yes, send me the price');

  await page.getByLabel(messages.conversations.composerPlaceholder).fill('It is ₹1,499. Shall I reserve one?');
  await page.getByRole('button', { name: messages.conversations.send, exact: true }).click();
  await expect(page.getByTestId('conversation-thread')).toContainText('It is ₹1,499. Shall I reserve one?');
  await expect
    .poll(async () => ((await (await page.request.get(`/simulator/messages?to=${contact}`)).json()) as { data: { text: string | null }[] }).data.map((m) => m.text), { timeout: 30_000 })
    .toContain('It is ₹1,499. Shall I reserve one?');

  // Send again to those who replied: the cost first, then a new campaign.
  await page.goto('/user/manage-reports?tab=campaigns');
  const card = page.getByTestId('campaign-card').filter({ hasText: template });
  await expect(card.getByText(messages.reportsScreen.replies, { exact: true })).toBeVisible();
  await card.getByRole('button', { name: new RegExp(messages.reportsScreen.sendAgain) }).click();
  const dialog = page.getByTestId('send-again-dialog');
  await dialog.getByLabel(messages.reportsScreen.sendAgainTemplate).selectOption({ label: followUp });
  await expect(dialog.getByTestId('send-again-cost')).toContainText('Contacts');
  await dialog.getByRole('button', { name: /^Send for/ }).click();
  await expect(page.getByText('Sent again: 1 message queued for delivery.')).toBeVisible();
  await expect
    .poll(async () => ((await (await page.request.get(`/simulator/messages?to=${contact}`)).json()) as { data: { text: string | null }[] }).data.map((m) => m.text ?? ''), { timeout: 30_000 })
    .toContainEqual(expect.stringContaining('here is the price list'));
});
