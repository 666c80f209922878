/**
 * A business goes live on its own, on the server with a supplier GSTIN (Telangana): it signs up
 * through the sign-up form, enters its GST details in Profile, connects its WhatsApp number
 * through the simulator's stand-in for Meta's Embedded Signup popup, tops up its wallet (a
 * Maharashtra buyer, so IGST), sends from the new number, and reads its tax invoice's figures
 * from the downloaded PDF's text. A new account holds ₹0, so the top-up comes before the send.
 */
import { readFile } from 'node:fs/promises';
import { expect, request, test } from '@playwright/test';
import { financialYearOf } from '@shared/gst';
import { istDate } from '@shared/istTime';
import { fillMessage, messages } from '@shared/messages';
import { E2E_PORTS } from '../../playwright.config';
import { LoginPage } from './pages/LoginPage';
import { ProfileDetailsPage } from './pages/ProfileDetailsPage';
import { QuickSendPage } from './pages/QuickSendPage';
import { SignupPage } from './pages/SignupPage';
import { WalletPage } from './pages/WalletPage';
import { approvedTemplate, testPhone } from './sending-support';
import { unique, uniquePhone } from './support';

const t = messages.whatsappConnect;
const inv = messages.invoices;
const GST_BASE = `http://127.0.0.1:${E2E_PORTS.gst}`;
const BUYER_GSTIN = '27AAPFU0939F1ZV';

/** The text of an uncompressed PDF's text operations, one line per operation (pdfkit writes glyphs as hex). */
function pdfText(pdf: string): string {
  return pdf
    .split('\n')
    .filter((line) => /\]\s*TJ$/.test(line))
    .map((line) => [...line.matchAll(/<([0-9a-f]*)>/g)].map(([, hex]) => Buffer.from(hex ?? '', 'hex').toString('latin1')).join(''))
    .join('\n');
}

test.use({ baseURL: GST_BASE });

test('a new business signs up, connects its WhatsApp number, tops up, sends from the number and downloads a GST tax invoice', async ({ page }) => {
  test.setTimeout(120_000);
  // Signs up as a business would, then signs in.
  const username = unique('golive');
  const password = 'meera-pass-12';
  const signup = new SignupPage(page);
  await signup.goto();
  await signup.fill({ name: 'Meera Joshi', email: `${username}@example.in`, username, password, phoneNumber: uniquePhone() });
  await signup.submit();
  await expect(page.getByText(messages.auth.signupSuccess).first()).toBeVisible();
  await page.waitForURL('**/login');
  const login = new LoginPage(page);
  await login.login(username, password);
  await page.waitForURL('**/user/dashboard');

  // The GST details printed on its invoices; the state is the place of supply.
  const profile = new ProfileDetailsPage(page);
  await profile.goto();
  await profile.saveBilling({ businessName: 'Meera Textiles', gstin: BUYER_GSTIN, address: '14 FC Road, Pune 411004', state: 'Maharashtra' });

  // Connects its number through the stand-in for Meta's popup.
  await page.goto('/user/dashboard');
  const card = page.getByTestId('connect-whatsapp-card');
  const popupOpened = page.waitForEvent('popup');
  await card.getByTestId('connect-whatsapp-start').click();
  const popup = await popupOpened;
  await popup.getByLabel('Business name').fill('Meera Textiles');
  await popup.getByLabel('Business phone number').fill('+91 98220 45678');
  await popup.getByRole('button', { name: 'Finish' }).click();
  await card.getByLabel(t.pinLabel).fill('246810');
  await card.getByTestId('connect-pin-submit').click();
  await expect(page.getByText(fillMessage(t.connected, { number: '+91 98220 45678' }))).toBeVisible();
  await expect(card.getByTestId('whatsapp-connection').getByTestId('whatsapp-connection-status')).toHaveText(t.statuses.connected);

  // Tops up ₹1,000 of credits: IGST, since Maharashtra is not the supplier's state.
  const wallet = new WalletPage(page);
  await wallet.goto();
  await wallet.preset('₹1,000').click();
  await expect(wallet.taxSummary()).toContainText('Credits ₹1,000.00 + GST ₹180.00 = you pay ₹1,180.00');
  await wallet.pay();
  await wallet.payInCheckout('₹1,180');
  await expect(wallet.checkout).toBeHidden();
  await expect(page.getByText(messages.wallet.creditsAdded)).toBeVisible();
  await expect(wallet.balance).toHaveText('₹1,000.00');

  // Sends from the new number.
  const template = unique('fabric_ready');
  await approvedTemplate(GST_BASE, { username, password }, { name: template, category: 'UTILITY', bodyText: 'Your fabric order is ready.' });
  const quick = new QuickSendPage(page);
  await quick.goto();
  await quick.number.selectOption({ label: 'Meera Textiles (919822045678)' });
  const phoneNumberId = await quick.number.inputValue();
  await quick.template.selectOption({ label: template.replace(/_/g, ' ') });
  const to = testPhone();
  await quick.recipients.fill(to);
  await quick.sendButton.click();
  await quick.confirmSend();
  await expect(quick.resultDialog.getByRole('heading', { name: messages.sendScreens.campaignAccepted })).toBeVisible();
  const api = await request.newContext({ baseURL: GST_BASE });
  await expect
    .poll(async () => ((await (await api.get(`/simulator/messages?to=${to}`)).json()) as { data: { from: string }[] }).data.map((message) => message.from))
    .toContain(phoneNumberId);
  await api.dispose();

  // Downloads the tax invoice and reads its figures.
  await wallet.goto();
  const number = new RegExp(`SND${financialYearOf(istDate()).short}/\\d{5}`);
  const row = wallet.taxDocumentRow(number);
  await expect(row).toContainText('27-Maharashtra');
  const download = page.waitForEvent('download');
  await row.getByRole('button', { name: new RegExp(`^${inv.download}: ${inv.taxInvoice}`) }).click();
  const text = pdfText(await readFile(await (await download).path(), 'latin1'));
  expect(text).toContain('Tax Invoice');
  expect(text).toMatch(number);
  expect(text).toContain('36AAPFU0939F1ZW');
  expect(text).toContain(BUYER_GSTIN);
  expect(text).toContain('Meera Textiles');
  expect(text).toContain('14 FC Road, Pune 411004');
  expect(text).toContain('27-Maharashtra');
  expect(text).toContain('IGST @ 18%');
  expect(text).not.toContain('CGST @');
  expect(text).toContain('INR 1,000.00');
  expect(text).toContain('INR 180.00');
  expect(text).toContain('INR 1,180.00');
  expect(text).toContain('Indian Rupees One Thousand One Hundred Eighty Only');
});
