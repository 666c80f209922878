import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { LoginPage } from './pages/LoginPage';
import { signedInUser } from './sending-support';
import { ADMIN } from './support';

/** Violations worth failing on: axe's serious and critical, against WCAG 2 A and AA. */
async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${violation.id} (${violation.impact}): ${violation.help}\n  ${violation.nodes
          .slice(0, 8)
          .map((node) => `${node.target.join(' ')} ${node.html.slice(0, 120)} ${(node.failureSummary ?? '').split('\n').slice(1, 2).join(' ')}`)
          .join('\n  ')}`,
    );
}

async function expectAccessible(page: Page, what: string): Promise<void> {
  // Judged once loaded: no skeleton or table is still marked busy. (Not 'networkidle': the
  // notification stream stays open.)
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
      await expect(page.getByRole('main')).toBeVisible();
      await expectAccessible(page, 'landing');
      await page.goto('/login');
      await expect(page.getByLabel('Username', { exact: true })).toBeVisible();
      await expectAccessible(page, 'login');
    });

    test('the user dashboard, quick send and reports', async ({ page, baseURL }) => {
      await signedInUser(page, baseURL ?? '', 0, { name: 'Lakshmi Iyer', prefix: 'a11y' });
      await expect(page.getByTestId('available-credits')).toBeVisible();
      await expectAccessible(page, 'dashboard');
      const nav = page.getByRole('navigation', { name: 'Main' });
      await nav.getByRole('link', { name: 'WhatsApp Quick Send' }).click();
      await page.waitForURL('**/user/whatsapp-bulk');
      await expectAccessible(page, 'quick send');
      await nav.getByRole('link', { name: 'Manage Reports' }).click();
      await page.waitForURL('**/user/manage-reports');
      await expectAccessible(page, 'reports');
    });

    test('the admin users page', async ({ page }) => {
      const login = new LoginPage(page);
      await login.goto();
      await login.login(ADMIN.username, ADMIN.password);
      await page.waitForURL('**/admin/dashboard');
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Users', exact: true }).click();
      await page.waitForURL('**/admin/users');
      await expect(page.getByRole('heading', { name: 'User Management', level: 2 })).toBeVisible();
      await expectAccessible(page, 'admin users');
    });
  });
}
