import { useQueryClient } from '@tanstack/react-query';
import { ArrowLeft, FileSpreadsheet, FileText, ListChecks, Megaphone, RefreshCw, Scale } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { toast } from 'sonner';
import { fillMessage, messages } from '@shared/messages';
import { campaignKeys } from '../../api/campaigns';
import { toApiError } from '../../api/client';
import { ReportExportError, reportKeys } from '../../api/reports';
import { NumberHealthCard } from '../../components/numberHealth/NumberHealthCard';
import { ReconciliationView } from '../../components/numberHealth/ReconciliationView';
import { CampaignsView } from '../../components/reports/CampaignsView';
import { ReportFilterBar } from '../../components/reports/ReportFilterBar';
import { ReportsSummaryCards } from '../../components/reports/ReportsSummaryCards';
import { ReportsTable } from '../../components/reports/ReportsTable';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Spinner } from '../../components/ui/spinner';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../components/ui/tabs';
import { useExportReports, useReportSenders, useReportsPage, useReportsSummary, useReportTemplates } from '../../hooks/useReports';
import { cn } from '../../lib/cn';
import {
  clearReportFilters,
  hasReportFilters,
  reportsLoadError,
  reportsViewFromSearch,
  searchFromReportsView,
  withoutReportFilter,
  withReportFilter,
  type ExportFormat,
  type ReportFilterKey,
  type ReportsView,
} from '../../lib/reports';

const r = messages.reportsScreen;

type ReportsTab = 'messages' | 'campaigns' | 'meta-bill';

function tabFromSearch(params: URLSearchParams): ReportsTab {
  const tab = params.get('tab');
  return tab === 'campaigns' || tab === 'meta-bill' ? tab : 'messages';
}

/** The address of a view, keeping the open tab. */
function searchFor(view: ReportsView, tab: ReportsTab): Record<string, string> {
  return { ...(tab !== 'messages' ? { tab } : {}), ...searchFromReportsView(view) };
}

/** The message report: summary, filters with chips, the table and its paging. */
function MessagesReport({ view, onViewChange }: { view: ReportsView; onViewChange: (update: (current: ReportsView) => ReportsView) => void }) {
  const list = useReportsPage(view.filters, view.page);
  const summary = useReportsSummary();
  const templates = useReportTemplates();
  const senders = useReportSenders();
  const failure = list.isError ? reportsLoadError(toApiError(list.error)) : null;

  // Spec §8: a failed load is a toast, once per failure; the table keeps what it had.
  const toastedAt = useRef(0);
  useEffect(() => {
    if (failure && list.errorUpdatedAt !== toastedAt.current) {
      toastedAt.current = list.errorUpdatedAt;
      toast.error(failure);
    }
  }, [failure, list.errorUpdatedAt]);

  const filtered = hasReportFilters(view.filters);
  const handleChange = (key: ReportFilterKey, value: string) => onViewChange((current) => withReportFilter(current, key, value));
  const handleRemove = (key: ReportFilterKey) => onViewChange((current) => withoutReportFilter(current, key));
  const handleClearAll = () => onViewChange(() => clearReportFilters());

  return (
    <div className="flex flex-col gap-6">
      <ReportsSummaryCards summary={summary.data} isLoading={summary.isPending} />
      <Card className="flex flex-col gap-4 p-5">
        <ReportFilterBar
          filters={view.filters}
          templates={templates.data ?? []}
          senders={senders.data ?? []}
          onChange={handleChange}
          onRemove={handleRemove}
          onClearAll={handleClearAll}
        />
      </Card>
      <Card className="overflow-hidden" data-testid="reports-table">
        <ReportsTable
          data={list.data}
          page={view.page}
          isPending={list.isPending}
          isFetching={list.isFetching}
          loadError={failure}
          onRetry={() => void list.refetch()}
          onPageChange={(page) => onViewChange((current) => ({ ...current, page }))}
          filtered={filtered}
          onClearFilters={handleClearAll}
        />
      </Card>
    </div>
  );
}

/**
 * /user/manage-reports (spec 002 "Manage Reports"): the message report with its filters, export
 * and paging, and the campaigns view with progress, actions and the activity chart. The tab, page
 * and filters live in the address.
 */
export function ManageReportsPage() {
  const [searchParams, setSearchParams] = useSearchParams();
  const queryClient = useQueryClient();
  const exportReports = useExportReports();
  const view = reportsViewFromSearch(searchParams);
  const tab = tabFromSearch(searchParams);

  // Functional: a typed number is committed after a pause, and must not undo a change made meanwhile.
  const handleViewChange = (update: (current: ReportsView) => ReportsView) =>
    setSearchParams((previous) => searchFor(update(reportsViewFromSearch(previous)), tabFromSearch(previous)));

  const handleTabChange = (next: string) =>
    setSearchParams((previous) => searchFor(reportsViewFromSearch(previous), next === 'campaigns' || next === 'meta-bill' ? next : 'messages'));

  const [isRefreshing, setIsRefreshing] = useState(false);
  const handleRefresh = async () => {
    setIsRefreshing(true);
    try {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: reportKeys.all }),
        queryClient.invalidateQueries({ queryKey: campaignKeys.all }),
      ]);
    } finally {
      setIsRefreshing(false);
    }
  };

  const handleExport = async (format: ExportFormat) => {
    try {
      const filename = await exportReports.mutateAsync({ filters: view.filters, format });
      toast.success(fillMessage(r.exported, { file: filename }));
    } catch (error) {
      // Spec §8: the server's words where it sent some, else 'Failed to export reports'.
      toast.error(error instanceof ReportExportError ? error.message : (toApiError(error).serverMessage ?? messages.reports.exportFailed));
    }
  };

  const exportingFormat = exportReports.isPending ? exportReports.variables.format : null;

  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-start sm:justify-between">
        <div className="flex flex-col gap-2">
          <Button variant="link" asChild className="h-auto self-start p-0">
            <Link to="/user/dashboard">
              <ArrowLeft aria-hidden="true" />
              {messages.sendScreens.backToDashboard}
            </Link>
          </Button>
          <div>
            <h2 className="text-2xl font-bold tracking-tight">{r.title}</h2>
            <p className="text-sm text-slate-500 dark:text-slate-400">Delivery and read status of every message, and the progress of your campaigns.</p>
          </div>
        </div>
        <div className="flex flex-wrap gap-2 sm:shrink-0 sm:justify-end">
          <Button variant="outline" onClick={() => void handleRefresh()} disabled={isRefreshing}>
            <RefreshCw className={cn(isRefreshing && 'animate-spin motion-reduce:animate-none')} aria-hidden="true" />
            {r.refresh}
          </Button>
          <Button variant="outline" onClick={() => void handleExport('csv')} disabled={exportReports.isPending}>
            {exportingFormat === 'csv' ? <Spinner className="text-current" /> : <FileText aria-hidden="true" />}
            {r.exportCsv}
          </Button>
          <Button variant="outline" onClick={() => void handleExport('excel')} disabled={exportReports.isPending}>
            {exportingFormat === 'excel' ? <Spinner className="text-current" /> : <FileSpreadsheet aria-hidden="true" />}
            {r.exportExcel}
          </Button>
        </div>
      </div>

      <Tabs value={tab} onValueChange={handleTabChange}>
        <TabsList aria-label="Report views">
          <TabsTrigger value="messages">
            <ListChecks aria-hidden="true" />
            Messages
          </TabsTrigger>
          <TabsTrigger value="campaigns">
            <Megaphone aria-hidden="true" />
            Campaigns
          </TabsTrigger>
          <TabsTrigger value="meta-bill">
            <Scale aria-hidden="true" />
            {messages.reconciliation.title}
          </TabsTrigger>
        </TabsList>
        <TabsContent value="messages">
          <MessagesReport view={view} onViewChange={handleViewChange} />
        </TabsContent>
        <TabsContent value="campaigns">
          <CampaignsView />
        </TabsContent>
        <TabsContent value="meta-bill">
          <div className="flex flex-col gap-6">
            <Card className="p-5">
              <ReconciliationView scope="own" />
            </Card>
            <NumberHealthCard scope="own" />
          </div>
        </TabsContent>
      </Tabs>
    </div>
  );
}
