import { expect, type Download, type Locator, type Page } from '@playwright/test';
import { fillMessage, messages } from '@shared/messages';

const r = messages.reportsScreen;

/** /user/manage-reports: the message report with its filters and export, and the campaigns view. */
export class ManageReportsPage {
  readonly heading: Locator;
  readonly messagesTab: Locator;
  readonly campaignsTab: Locator;
  readonly fromDate: Locator;
  readonly toDate: Locator;
  readonly recipient: Locator;
  readonly template: Locator;
  readonly status: Locator;
  readonly chips: Locator;
  readonly clearAll: Locator;
  readonly rows: Locator;
  readonly empty: Locator;
  readonly pageLabel: Locator;
  readonly total: Locator;
  readonly refresh: Locator;
  readonly exportCsvButton: Locator;
  readonly exportExcelButton: Locator;
  readonly chart: Locator;
  readonly resendDialog: Locator;
  readonly campaignStatus: Locator;
  readonly rescheduleDialog: Locator;
  readonly actionDialog: Locator;

  constructor(private readonly page: Page) {
    this.heading = page.getByRole('heading', { name: r.title, exact: true });
    this.messagesTab = page.getByRole('tab', { name: 'Messages' });
    this.campaignsTab = page.getByRole('tab', { name: 'Campaigns' });
    this.fromDate = page.getByLabel('From Date', { exact: true });
    this.toDate = page.getByLabel('To Date', { exact: true });
    this.recipient = page.getByLabel('Recipient Number', { exact: true });
    this.template = page.getByLabel('Template', { exact: true });
    this.status = page.getByLabel('Status', { exact: true });
    this.chips = page.getByTestId('filter-chip');
    this.clearAll = page.getByTestId('filter-chips').getByRole('button', { name: r.clearAll, exact: true });
    this.rows = page.getByTestId('report-row');
    this.empty = page.getByTestId('reports-empty');
    this.pageLabel = page.getByTestId('reports-page');
    this.total = page.getByTestId('reports-total');
    this.refresh = page.getByRole('button', { name: r.refresh, exact: true });
    this.exportCsvButton = page.getByRole('button', { name: r.exportCsv, exact: true });
    this.exportExcelButton = page.getByRole('button', { name: r.exportExcel, exact: true });
    this.chart = page.getByTestId('timeline-chart');
    this.resendDialog = page.getByTestId('send-again-dialog');
    this.campaignStatus = page.getByLabel('Campaign Status', { exact: true });
    this.rescheduleDialog = page.getByTestId('reschedule-dialog');
    this.actionDialog = page.getByTestId('campaign-action-dialog');
  }

  async goto(): Promise<void> {
    await this.page.goto('/user/manage-reports');
    await expect(this.heading).toBeVisible();
  }

  /** The report row of one recipient (stored digits, shown with their plus). */
  row(recipient: string): Locator {
    return this.rows.filter({ hasText: `+${recipient}` });
  }

  chip(label: string): Locator {
    return this.chips.filter({ hasText: label });
  }

  async removeChip(label: string): Promise<void> {
    await this.page.getByRole('button', { name: fillMessage(r.removeFilter, { label }), exact: true }).click();
  }

  /** Clicks an export button and answers the file the browser received. */
  async exportFile(format: 'csv' | 'excel'): Promise<Download> {
    const [download] = await Promise.all([
      this.page.waitForEvent('download'),
      (format === 'csv' ? this.exportCsvButton : this.exportExcelButton).click(),
    ]);
    return download;
  }

  campaignCard(name: string): Locator {
    return this.page.getByTestId('campaign-card').filter({ has: this.page.getByRole('heading', { name, exact: true }) });
  }
}
