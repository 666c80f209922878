/**
 * GST tax invoices on a server with a supplier GSTIN (Telangana): the tax is shown before payment,
 * the sandbox checkout charges it, and the tax invoice downloaded from the Wallet page carries the
 * figures in its text.
 */
import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { financialYearOf } from '@shared/gst';
import { istDate } from '@shared/istTime';
import { messages } from '@shared/messages';
import { E2E_PORTS } from '../../playwright.config';
import { LoginPage } from './pages/LoginPage';
import { WalletPage } from './pages/WalletPage';
import { createUser } from './support';

const inv = messages.invoices;
const GST_BASE = `http://127.0.0.1:${E2E_PORTS.gst}`;

/** The text of an uncompressed PDF's text operations, one line per operation (pdfkit writes glyphs as hex). */
function pdfText(pdf: string): string {
  return pdf
    .split('\n')
    .filter((line) => /\]\s*TJ$/.test(line))
    .map((line) => [...line.matchAll(/<([0-9a-f]*)>/g)].map(([, hex]) => Buffer.from(hex ?? '', 'hex').toString('latin1')).join(''))
    .join('\n');
}

test.use({ baseURL: GST_BASE });

test('a business tops up ₹1,000 of credits, pays ₹1,180 with CGST and SGST, and downloads its tax invoice', async ({ page }) => {
  const user = await createUser(GST_BASE);
  const login = new LoginPage(page);
  await login.goto();
  await login.login(user.username, user.password);
  await page.waitForURL('**/user/dashboard');
  // A Telangana GSTIN: the same state as the supplier, so CGST + SGST.
  const profile = await page.request.put('/api/auth/update-profile', { data: { name: user.name, email: user.email, businessName: 'Asha Traders', gstin: '36AABCT1332L1ZF' } });
  expect(profile.status()).toBe(200);

  const wallet = new WalletPage(page);
  await wallet.goto();
  await wallet.preset('₹1,000').click();
  await expect(wallet.taxSummary()).toContainText('Credits ₹1,000.00 + GST ₹180.00 = you pay ₹1,180.00');
  await expect(wallet.taxSummary()).toContainText('CGST ₹90.00 + SGST ₹90.00');
  await expect(wallet.payButton()).toHaveText('Pay ₹1,180.00');
  await wallet.pay();
  await wallet.payInCheckout('₹1,180');
  await expect(wallet.checkout).toBeHidden();
  await expect(page.getByText(messages.wallet.creditsAdded)).toBeVisible();
  await expect(wallet.balance).toHaveText('₹2,000.00');

  const number = new RegExp(`SND${financialYearOf(istDate()).short}/\\d{5}`);
  const row = wallet.taxDocumentRow(number);
  await expect(row).toBeVisible();
  await expect(row).toContainText('₹1,180.00');
  await expect(row).toContainText('36-Telangana');

  const download = page.waitForEvent('download');
  await row.getByRole('button', { name: new RegExp(`^${inv.download}: ${inv.taxInvoice}`) }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^SND\d{4}-\d{5}\.pdf$/);
  const text = pdfText(await readFile(await file.path(), 'latin1'));
  expect(text).toContain('Tax Invoice');
  expect(text).toMatch(number);
  expect(text).toContain('36AAPFU0939F1ZW');
  expect(text).toContain('36AABCT1332L1ZF');
  expect(text).toContain('Asha Traders');
  expect(text).toContain('36-Telangana');
  expect(text).toContain('CGST @ 9%');
  expect(text).toContain('SGST @ 9%');
  expect(text).toContain('INR 1,000.00');
  expect(text).toContain('INR 90.00');
  expect(text).toContain('INR 1,180.00');
  expect(text).toContain('Indian Rupees One Thousand One Hundred Eighty Only');
});
