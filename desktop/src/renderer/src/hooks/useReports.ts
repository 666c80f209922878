import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { reportKeys, reportsApi } from '../api/reports';
import { saveFile } from '../platform/files';
import type { ExportFormat, ReportFilters } from '../lib/reports';

/** One page of the message report; the page on screen stays while the next one loads. */
export function useReportsPage(filters: ReportFilters, page: number) {
  return useQuery({
    queryKey: reportKeys.list(filters, page),
    queryFn: async () => (await reportsApi.list(filters, page)).data,
    placeholderData: keepPreviousData,
  });
}

export function useReportsSummary() {
  return useQuery({ queryKey: reportKeys.summary, queryFn: async () => (await reportsApi.summary()).data });
}

/** The Template filter's options; without them the filter still offers "All templates". */
export function useReportTemplates() {
  return useQuery({ queryKey: reportKeys.templates, queryFn: async () => (await reportsApi.templates()).data, staleTime: 60_000 });
}

/** The Sent by filter's options: the account's members (and anyone who sent for it and has left). */
export function useReportSenders() {
  return useQuery({ queryKey: reportKeys.senders, queryFn: async () => (await reportsApi.senders()).data, staleTime: 60_000 });
}

/** Downloads the export for `filters` and hands it to the shell to save; answers the file name. */
export function useExportReports() {
  return useMutation({
    mutationFn: async ({ filters, format }: { filters: ReportFilters; format: ExportFormat }) => {
      const file = await reportsApi.exportFile(filters, format);
      saveFile(file.blob, file.filename);
      return file.filename;
    },
  });
}

/** The user dashboard's Account Overview figures. */
export function useAccountOverview() {
  return useQuery({ queryKey: reportKeys.overview, queryFn: async () => (await reportsApi.overview()).data, staleTime: 30_000 });
}
