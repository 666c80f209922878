import { expect, request, test } from '@playwright/test';
import { fillMessage, messages } from '@shared/messages';
import { QuickSendPage } from './pages/QuickSendPage';
import { approvedTemplate, signedInUser, testPhone } from './sending-support';
import { unique } from './support';

const t = messages.whatsappConnect;

test.describe('connect WhatsApp yourself', () => {
  test("a new business connects its number through the simulator's signup popup, sets a PIN, watches the steps finish and sends from that number", async ({ page, baseURL }) => {
    const base = baseURL ?? '';
    const user = await signedInUser(page, base, 100, { name: 'Kavya Rao', prefix: 'connect' });
    const template = unique('order_ready');
    await approvedTemplate(base, user, { name: template, category: 'UTILITY', bodyText: 'Your order is ready for pickup.' });

    const card = page.getByTestId('connect-whatsapp-card');
    await expect(card.getByText(t.sandboxNote)).toBeVisible();
    const popupOpened = page.waitForEvent('popup');
    await card.getByTestId('connect-whatsapp-start').click();
    const popup = await popupOpened;
    await popup.getByLabel('Business name').fill('Kavya Sweets');
    await popup.getByLabel('Business phone number').fill('+91 98450 12345');
    await popup.getByRole('button', { name: 'Finish' }).click();

    await card.getByLabel(t.pinLabel).fill('135790');
    await card.getByTestId('connect-pin-submit').click();
    await expect(page.getByText(fillMessage(t.connected, { number: '+91 98450 12345' }))).toBeVisible();
    const connection = card.getByTestId('whatsapp-connection');
    await expect(connection.getByTestId('whatsapp-connection-status')).toHaveText(t.statuses.connected);
    await expect(connection).toContainText('Kavya Sweets');

    // The new number is one of the send screens' numbers.
    const quick = new QuickSendPage(page);
    await quick.goto();
    await quick.number.selectOption({ label: 'Kavya Sweets (919845012345)' });
    const phoneNumberId = await quick.number.inputValue();
    await quick.template.selectOption({ label: template.replace(/_/g, ' ') });
    const to = testPhone();
    await quick.recipients.fill(to);
    await quick.sendButton.click();
    await quick.confirmSend();
    await expect(quick.resultDialog.getByRole('heading', { name: messages.sendScreens.campaignAccepted })).toBeVisible();

    const api = await request.newContext({ baseURL: base });
    await expect
      .poll(async () => {
        const response = await api.get(`/simulator/messages?to=${to}`);
        const body = (await response.json()) as { data: { from: string }[] };
        return body.data.map((message) => message.from);
      })
      .toContain(phoneNumberId);
    await api.dispose();
  });
});
