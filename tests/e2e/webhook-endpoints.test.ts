import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { messages } from '@shared/messages';
import { ApiManagementPage } from './pages/ApiManagementPage';
import { LoginPage } from './pages/LoginPage';
import { WebhookEndpointsCard } from './pages/WebhookEndpointsCard';
import { createUser } from './support';

const w = messages.integrations;

/** A receiver that refuses until told to accept, recording the event types it was sent. */
async function startReceiver(): Promise<{ url: string; accept: boolean; types: string[]; close: () => Promise<void> }> {
  const state = { accept: false, types: [] as string[] };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      state.types.push((JSON.parse(Buffer.concat(chunks).toString('utf8')) as { type: string }).type);
      res.writeHead(state.accept ? 200 : 503).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(state, { url: `http://127.0.0.1:${port}/hooks`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) });
}

test.describe('webhook endpoints on API management', () => {
  test('a user adds an endpoint, sees its secret once, sends a test event, sees it fail, and retries it to success', async ({ page, baseURL }) => {
    const receiver = await startReceiver();
    try {
      const user = await createUser(baseURL ?? '', { name: 'Ravi Iyer' });
      const login = new LoginPage(page);
      await login.goto();
      await login.login(user.username, user.password);
      await page.waitForURL('**/user/dashboard');
      await new ApiManagementPage(page).goto();

      const hooks = new WebhookEndpointsCard(page);
      await expect(page.getByText(w.webhookNoEndpoints)).toBeVisible();
      // A private address is refused with the catalogue's words, beside the field.
      await hooks.url.fill('http://10.0.0.5/hooks');
      await hooks.add.click();
      await expect(page.getByText(w.webhookUrlAddress)).toBeVisible();

      await hooks.url.fill(receiver.url);
      await hooks.description.fill('Order system');
      await hooks.event('message.read').check();
      await hooks.add.click();
      await expect(hooks.secretDialog).toBeVisible();
      await expect(hooks.secretDialog).toContainText(w.webhookSecretShownOnce);
      await expect(hooks.secret).toHaveValue(/^whsec_/);
      await hooks.secretDialog.getByRole('button', { name: 'Done' }).click();
      await expect(hooks.secretDialog).toBeHidden();

      const row = hooks.row(receiver.url);
      await expect(row).toContainText('Order system');
      await expect(row).toContainText('message.read');
      // The secret is not on the page any more.
      await expect(page.getByTestId('webhook-secret')).toHaveCount(0);

      await row.getByRole('button', { name: 'Send test' }).click();
      await expect(row.getByTestId('webhook-delivery-event')).toHaveText('ping');
      await expect(row.getByTestId('webhook-delivery-state')).toHaveText('Retrying');
      await expect(row.getByRole('cell', { name: '503' })).toBeVisible();

      receiver.accept = true;
      await row.getByRole('button', { name: /^Retry/ }).click();
      await expect(row.getByTestId('webhook-delivery-state')).toHaveText('Succeeded');
      await expect(row.getByRole('cell', { name: '200', exact: true })).toBeVisible();
      expect(receiver.types).toEqual(['ping', 'ping']);

      // Keyboard: the delete button is reachable and the confirmation works.
      await row.getByRole('button', { name: /^Delete/ }).focus();
      await page.keyboard.press('Enter');
      await page.getByRole('button', { name: 'Delete', exact: true }).click();
      await expect(page.getByText(w.webhookNoEndpoints)).toBeVisible();
    } finally {
      await receiver.close();
    }
  });

  test('the API reference renders every public call from /api/openapi.json with copyable samples', async ({ page, baseURL, context }) => {
    const origin = baseURL ?? '';
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
    const user = await createUser(origin, { name: 'Meera Nair' });
    const login = new LoginPage(page);
    await login.goto();
    await login.login(user.username, user.password);
    await page.waitForURL('**/user/dashboard');
    await new ApiManagementPage(page).goto();
    await page.getByRole('tab', { name: 'Reference' }).click();
    const document = (await (await page.request.get('/api/openapi.json')).json()) as { paths: Record<string, Record<string, unknown>> };
    const operations = Object.values(document.paths).reduce((sum, methods) => sum + Object.keys(methods).length, 0);
    await expect(page.getByTestId('api-reference-operation')).toHaveCount(operations);
    const getMessage = page.getByTestId('api-reference-operation').filter({ hasText: '/api/messages/{messageId}' });
    await expect(getMessage.getByText(`curl -X GET '${origin}/api/messages/msg_48213907'`, { exact: false })).toBeVisible();
    await getMessage.getByRole('tab', { name: 'Python' }).click();
    await expect(getMessage.getByText('os.environ["SANDESH_API_KEY"]', { exact: false })).toBeVisible();
  });
});
