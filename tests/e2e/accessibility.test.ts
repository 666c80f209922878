import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { messages } from '@shared/messages';
import { LoginPage } from './pages/LoginPage';
import { signedInUser } from './sending-support';
import { ADMIN } from './support';

type NodeResult = Awaited<ReturnType<AxeBuilder['analyze']>>['violations'][number]['nodes'][number];

/** A contrast failure's colours as axe computed them, to tell a real gap from a page mid-change. */
function contrastColours(node: NodeResult): string {
  const data: unknown = node.any[0]?.data;
  if (typeof data !== 'object' || data === null || !('bgColor' in data) || !('fgColor' in data)) return '';
  return ` [fg ${String(data.fgColor)} on bg ${String(data.bgColor)}]`;
}

/** Violations worth failing on: axe's serious and critical, against WCAG 2 A and AA. */
async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${violation.id} (${violation.impact}): ${violation.help}\n  ${violation.nodes
          .slice(0, 8)
          .map((node) => `${node.target.join(' ')} ${node.html.slice(0, 120)} ${(node.failureSummary ?? '').split('\n').slice(1, 2).join(' ')}${contrastColours(node)}`)
          .join('\n  ')}`,
    );
}

/**
 * Judged once loaded: `ready` (the page's own heading or field) is shown, since each screen is
 * loaded on demand and right after a click the old screen or a spinner is there with nothing busy
 * yet; then no skeleton or table is still marked busy. (Not 'networkidle': the notification stream
 * stays open.) Judged before its heading, the reports page was caught as its figure skeletons
 * turned into figures, a grey the finished page never shows.
 */
async function expectAccessible(page: Page, what: string, ready: Locator): Promise<void> {
  await expect(ready).toBeVisible();
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
  expect(await seriousViolations(page), `${what}: serious or critical axe violations`).toEqual([]);
}

for (const colorScheme of ['light', 'dark'] as const) {
  test.describe(`accessibility (axe, WCAG 2 A/AA) in the ${colorScheme} theme`, () => {
    // Judged at rest: a toast still fading out (the login's, seconds later on a quick browser)
    // has a contrast no reader meets, and the app drops its transitions for reduced motion.
    test.use({ colorScheme, reducedMotion: 'reduce' });

    test('the landing and login pages', async ({ page }) => {
      await page.goto('/');
      await expectAccessible(page, 'landing', page.getByRole('main'));
      await page.goto('/login');
      await expectAccessible(page, 'login', page.getByLabel('Username', { exact: true }));
    });

    test('the user dashboard, quick send and reports', async ({ page, baseURL }) => {
      await signedInUser(page, baseURL ?? '', 0, { name: 'Lakshmi Iyer', prefix: 'a11y' });
      await expectAccessible(page, 'dashboard', page.getByTestId('available-credits'));
      const nav = page.getByRole('navigation', { name: 'Main' });
      await nav.getByRole('link', { name: 'WhatsApp Quick Send' }).click();
      await page.waitForURL('**/user/whatsapp-bulk');
      await expectAccessible(page, 'quick send', page.getByRole('heading', { name: 'WhatsApp Quick Send', level: 2 }));
      await nav.getByRole('link', { name: 'Manage Reports' }).click();
      await page.waitForURL('**/user/manage-reports');
      await expectAccessible(page, 'reports', page.getByRole('heading', { name: 'Manage Reports', level: 2 }));
    });

    test('the admin users and webhook events pages', async ({ page }) => {
      const login = new LoginPage(page);
      await login.goto();
      await login.login(ADMIN.username, ADMIN.password);
      await page.waitForURL('**/admin/dashboard');
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Users', exact: true }).click();
      await page.waitForURL('**/admin/users');
      await expectAccessible(page, 'admin users', page.getByRole('heading', { name: 'User Management', level: 2 }));
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: messages.unknownWebhookEvents.nav, exact: true }).click();
      await page.waitForURL('**/admin/webhook-events');
      await expectAccessible(page, 'admin webhook events', page.getByRole('heading', { name: messages.unknownWebhookEvents.title, level: 2 }));
    });
  });
}
