import { expect, type Locator, type Page } from '@playwright/test';

/** /user/templates/create and /user/templates/:id/edit: the template builder and its preview. */
export class TemplateBuilderPage {
  readonly name: Locator;
  readonly category: Locator;
  readonly language: Locator;
  readonly headerType: Locator;
  readonly headerText: Locator;
  readonly bodyText: Locator;
  readonly footerText: Locator;
  readonly preview: Locator;

  constructor(private readonly page: Page) {
    this.name = page.getByLabel('Template Name', { exact: true });
    this.category = page.getByLabel('Category', { exact: true });
    this.language = page.getByLabel('Language', { exact: true });
    this.headerType = page.getByLabel('Header Type', { exact: true });
    this.headerText = page.getByLabel('Header Text', { exact: true });
    this.bodyText = page.getByLabel('Body Text', { exact: true });
    this.footerText = page.getByLabel('Footer Text', { exact: true });
    this.preview = page.getByTestId('template-preview');
  }

  async gotoCreate(): Promise<void> {
    await this.page.goto('/user/templates/create');
    await expect(this.name).toBeVisible();
  }

  async addVariable(): Promise<void> {
    await this.page.getByRole('button', { name: 'Add Variable', exact: true }).click();
  }

  example(variable: string): Locator {
    return this.page.getByLabel(`Example for {{${variable}}}`, { exact: true });
  }

  async addButton(): Promise<void> {
    await this.page.getByRole('button', { name: 'Add Button', exact: true }).click();
  }

  buttonType(n: number): Locator {
    return this.page.getByLabel(`Button ${n} Type`, { exact: true });
  }

  buttonText(n: number): Locator {
    return this.page.getByLabel(`Button ${n} Text`, { exact: true });
  }

  buttonUrl(n: number): Locator {
    return this.page.getByLabel(`Button ${n} URL`, { exact: true });
  }

  /** Save Draft, Create & Submit (new) or Save Changes, Save & Submit (editing). */
  async save(label: 'Save Draft' | 'Create & Submit' | 'Save Changes' | 'Save & Submit'): Promise<void> {
    await this.page.getByRole('button', { name: label, exact: true }).click();
    await this.page.waitForURL(/\/user\/templates$/);
  }
}
