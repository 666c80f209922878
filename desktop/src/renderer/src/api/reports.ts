import { messages } from '@shared/messages';
import type { TAccountOverview, TReportSender, TReportsPage, TReportsSummary } from '@shared/schemas/reports';
import {
  exportFailureText,
  exportQueryParams,
  fallbackExportName,
  filenameFromDisposition,
  hasReportFilters,
  reportsQueryParams,
  type ExportFormat,
  type ReportFilters,
} from '../lib/reports';
import { apiGet, http } from './client';

interface DataResponse<T> {
  success: true;
  data: T;
}

export interface ExportedFile {
  blob: Blob;
  filename: string;
}

/** A failed export, with the text to show (spec 002 §8 "Export"). */
export class ReportExportError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ReportExportError';
  }
}

/** An export of every matching row may take a while to build on the server. */
const EXPORT_TIMEOUT_MS = 300_000;

async function exportReports(filters: ReportFilters, format: ExportFormat, now: Date = new Date()): Promise<ExportedFile> {
  const response = await http.get<Blob>('/api/whatsapp/reports', {
    params: exportQueryParams(filters, format),
    responseType: 'blob',
    timeout: EXPORT_TIMEOUT_MS,
    // A refusal arrives as a blob too; it is read here for the server's words. A 401 still goes
    // through the client's error path, which ends the session.
    validateStatus: (status) => status !== 401,
  });
  const blob = response.data;
  if (response.status >= 400) {
    const body = await blob.text().catch(() => '');
    throw new ReportExportError(exportFailureText(body));
  }
  if (blob.size === 0) throw new ReportExportError(messages.reports.emptyFile);
  const header: unknown = response.headers['content-disposition'];
  const filename =
    filenameFromDisposition(typeof header === 'string' ? header : null) ?? fallbackExportName(format, hasReportFilters(filters), now);
  return { blob, filename };
}

/** The reports calls (spec 002 §7) and the dashboard figures built from the same data. */
export const reportsApi = {
  list: (filters: ReportFilters, page: number) =>
    apiGet<DataResponse<TReportsPage>>('/api/whatsapp/reports', { params: reportsQueryParams(filters, page) }),

  summary: () => apiGet<DataResponse<TReportsSummary>>('/api/whatsapp/reports/summary'),

  /** Names of the templates the user's messages used: the Template filter's options. */
  templates: () => apiGet<DataResponse<string[]>>('/api/whatsapp/reports/templates'),

  /** The account's members: the Sent by filter's options. */
  senders: () => apiGet<DataResponse<TReportSender[]>>('/api/whatsapp/reports/senders'),

  /** The file for every row matching `filters` (not one page), with the server's file name. */
  exportFile: exportReports,

  /** The user dashboard's Account Overview. */
  overview: () => apiGet<DataResponse<TAccountOverview>>('/api/dashboard/overview'),
};

export const reportKeys = {
  all: ['reports'] as const,
  list: (filters: ReportFilters, page: number) => ['reports', 'list', filters, page] as const,
  summary: ['reports', 'summary'] as const,
  templates: ['reports', 'templates'] as const,
  senders: ['reports', 'senders'] as const,
  overview: ['reports', 'overview'] as const,
};
