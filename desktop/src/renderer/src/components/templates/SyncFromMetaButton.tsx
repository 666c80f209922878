import { CloudDownload } from 'lucide-react';
import { toast } from 'sonner';
import { formatIndianNumber } from '@shared/money';
import { fillMessage, messages } from '@shared/messages';
import type { TTemplateSyncResponse, TTemplateSyncResult } from '@shared/types';
import { errorText } from '../../api/client';
import { Button } from '../ui/button';
import { Spinner } from '../ui/spinner';

const t = messages.templateSync;

/** The toast's sentence for a sync's four counts, in Indian grouping. */
export function syncResultText(result: TTemplateSyncResult): string {
  return fillMessage(t.result, {
    imported: formatIndianNumber(result.imported),
    updated: formatIndianNumber(result.updated),
    unchanged: formatIndianNumber(result.unchanged),
    failed: formatIndianNumber(result.failed),
  });
}

/**
 * "Sync from Meta": reads every template of the account at Meta. The button says it is working
 * (and is busy for screen readers) until the answer; the result or the failure is a toast.
 */
export function SyncFromMetaButton({ sync, isPending }: { sync: () => Promise<TTemplateSyncResponse>; isPending: boolean }) {
  const handleSync = async () => {
    try {
      const { data } = await sync();
      const text = syncResultText(data);
      if (data.failed > 0) toast.warning(text, { description: fillMessage(t.failedHint, { failed: formatIndianNumber(data.failed) }) });
      else toast.success(text);
    } catch (caught) {
      toast.error(errorText(caught, t.syncFailed));
    }
  };

  return (
    <Button variant="outline" onClick={() => void handleSync()} disabled={isPending} aria-busy={isPending} title={t.syncHint}>
      {isPending ? <Spinner /> : <CloudDownload aria-hidden="true" />}
      {isPending ? t.syncing : t.syncButton}
    </Button>
  );
}
