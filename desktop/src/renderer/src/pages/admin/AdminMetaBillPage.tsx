import { messages } from '@shared/messages';
import { NumberHealthCard } from '../../components/numberHealth/NumberHealthCard';
import { ReconciliationView } from '../../components/numberHealth/ReconciliationView';
import { Card, CardContent, CardHeader, CardTitle } from '../../components/ui/card';

/** /admin/reconciliation: every account's charges beside Meta's bill, and every Cloud API number's health at Meta. */
export function AdminMetaBillPage() {
  return (
    <div className="flex flex-col gap-6">
      <div>
        <h2 className="text-2xl font-bold tracking-tight">{messages.reconciliation.adminTitle}</h2>
      </div>
      <Card>
        <CardHeader>
          <CardTitle>{messages.reconciliation.title}</CardTitle>
        </CardHeader>
        <CardContent>
          <ReconciliationView scope="admin" />
        </CardContent>
      </Card>
      <NumberHealthCard scope="admin" />
    </div>
  );
}
