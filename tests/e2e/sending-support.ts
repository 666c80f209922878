import path from 'node:path';
import Database from 'better-sqlite3';
import { expect, request, type APIRequestContext, type Page } from '@playwright/test';
import type { TCampaign, TCampaignAccepted, TSenderNumber } from '@shared/schemas/sending';
import { E2E_PORTS } from '../../playwright.config';
import { LoginPage } from './pages/LoginPage';
import { adminApi, unique, uniquePhone } from './support';

/** A 1x1 PNG: enough for the server to recognise an image by its content. */
export const PNG_PIXEL = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

/** A random Indian mobile number ending in `suffix` (the simulator fails …0000, never reads …0001). */
export function testPhone(suffix = ''): string {
  const body = String(Math.floor(Math.random() * 10 ** (10 - suffix.length))).padStart(10 - suffix.length, '7');
  return `91${body}${suffix}`;
}

/** A new user with `credits` rupees in the wallet, made by the e2e admin and signed in on `page`. */
export async function signedInUser(page: Page, baseURL: string, credits: number, who: { name: string; prefix: string }): Promise<{ username: string; password: string }> {
  const admin = await adminApi(baseURL);
  const username = unique(who.prefix);
  const created = await admin.post('/api/admin/users', {
    data: { name: who.name, email: `${username}@example.in`, username, password: 'user-pass-123', phoneNumber: uniquePhone(), role: 'user', creditBalance: credits },
  });
  expect(created.status(), await created.text()).toBe(201);
  await admin.dispose();
  const user = { username, password: 'user-pass-123' };
  const login = new LoginPage(page);
  await login.goto();
  await login.login(user.username, user.password);
  await page.waitForURL('**/user/dashboard');
  return user;
}

export interface TemplateFields {
  name: string;
  category: 'MARKETING' | 'UTILITY';
  bodyText: string;
  variableExamples?: Record<string, string>;
  /** An image header, sent as the template's stored header file. */
  headerImage?: Buffer;
}

/** Creates a template as `user` through the API, submits it, and has the e2e admin approve it. */
export async function approvedTemplate(baseURL: string, user: { username: string; password: string }, fields: TemplateFields): Promise<void> {
  const userApi = await request.newContext({ baseURL });
  expect((await userApi.post('/api/auth/login', { data: { username: user.username, password: user.password } })).ok()).toBe(true);
  const created = await userApi.post('/api/templates', {
    multipart: {
      name: fields.name,
      category: fields.category,
      language: 'en_US',
      headerType: fields.headerImage ? 'image' : 'none',
      ...(fields.headerImage ? { headerMedia: { name: 'header.png', mimeType: 'image/png', buffer: fields.headerImage } } : {}),
      bodyText: fields.bodyText,
      variableExamples: JSON.stringify(fields.variableExamples ?? {}),
      submit_to_whatsapp: 'true',
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { id } = ((await created.json()) as { data: { id: number } }).data;
  await userApi.dispose();

  const admin = await adminApi(baseURL);
  const approved = await admin.put(`/api/admin/templates/${id}/status`, { data: { status: 'APPROVED' } });
  expect(approved.ok(), await approved.text()).toBe(true);
  // The admin's approval sends it to Meta (the simulator); Meta's review approves it by webhook.
  await expect
    .poll(async () => {
      const templates = ((await (await admin.get(`/api/admin/templates?status=ALL&search=${encodeURIComponent(fields.name)}`)).json()) as { templates: { name: string; status: string }[] }).templates;
      return templates.find((template) => template.name === fields.name)?.status;
    }, { timeout: 30_000 })
    .toBe('APPROVED');
  await admin.dispose();
}

/** Quick-sends through the API and waits until every message is read (charged, settled). */
export async function settledCampaign(api: APIRequestContext, template: string, recipients: string[]): Promise<number> {
  const numbers = (await (await api.get('/api/whatsapp/numbers')).json()) as { data: TSenderNumber[] };
  const sent = await api.post('/api/whatsapp/quick-send', {
    data: { phone_number_id: numbers.data[0]?.phone_number_id, template_name: template, language: 'en_US', recipients_text: recipients.join('\n'), variables: { '1': 'Meera' } },
  });
  expect(sent.status(), await sent.text()).toBe(200);
  const { campaignId } = ((await sent.json()) as { data: TCampaignAccepted }).data;
  await expect
    .poll(async () => ((await (await api.get(`/api/campaigns/${campaignId}`)).json()) as { data: TCampaign }).data.counts.read, { timeout: 30_000 })
    .toBe(recipients.length);
  return campaignId;
}

/** The main e2e server's own SQLite file, for states no API call makes (old logs, held refunds). */
export function openE2eDatabase(): Database.Database {
  return new Database(path.resolve('test-results', `e2e-data-${E2E_PORTS.main}`, 'sandesh.sqlite'));
}
