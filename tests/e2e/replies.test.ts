import { expect, test } from '@playwright/test';
import { messages } from '@shared/messages';
import type { TSenderNumber } from '@shared/schemas/sending';
import { QuickSendPage } from './pages/QuickSendPage';
import { approvedTemplate, settledCampaign, signedInUser, testPhone } from './sending-support';
import { unique } from './support';

/**
 * The reply side end to end: a campaign goes out, the simulator's contact answers it, the answer
 * appears live in Replies, the user answers from the composer, the answer reaches the simulator,
 * and "Send again to… those who replied" shows its cost and sends a follow-up template. Then the
 * contact opts out (the message carries its badge), and a contact who wrote more than a day ago
 * can be answered only by a template: the composer links to Quick Send with their number filled in.
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

  // The contact opts out: the thread's message carries what the rule made of it.
  const stopped = await page.request.post('/simulator/inbox/messages', { data: { phone_number_id: numbers.data[0]?.phone_number_id, from: contact, name: 'Meera', text: 'STOP' } });
  expect(stopped.status(), await stopped.text()).toBe(201);
  await page.goto('/user/replies');
  await page.getByTestId('conversation-row').filter({ hasText: 'Meera' }).click();
  const thread = page.getByTestId('conversation-thread');
  await expect(thread.getByTestId('conversation-message').filter({ hasText: 'STOP' }).getByTestId('reply-effect')).toHaveText(messages.conversations.effects.opted_out);
  await expect(thread.getByTestId('conversation-message').filter({ hasText: 'Yes, send me the price' }).getByTestId('reply-effect')).toHaveCount(0);

  // A contact who last wrote 25 hours ago: outside the window only a template may go, from Quick Send.
  const late = testPhone();
  const old = await page.request.post('/simulator/inbox/messages', { data: { phone_number_id: numbers.data[0]?.phone_number_id, from: late, name: 'Ravi', text: 'Is the offer still on?', hours_ago: 25 } });
  expect(old.status(), await old.text()).toBe(201);
  await page.getByTestId('conversation-row').filter({ hasText: 'Ravi' }).click();
  await expect(page.getByTestId('conversation-thread')).toContainText('Is the offer still on?');
  await expect(page.getByText(messages.conversations.windowClosed)).toBeVisible();
  await expect(page.getByLabel(messages.conversations.composerPlaceholder)).toHaveCount(0);
  await page.getByRole('link', { name: messages.conversations.sendTemplate }).click();
  await expect(page).toHaveURL(new RegExp(`/user/whatsapp-bulk\\?to=${late}$`));
  await expect(new QuickSendPage(page).recipients).toHaveValue(late);
});
