import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { toast } from 'sonner';
import { messages } from '@shared/messages';
import type { TWhatsappConnection } from '@shared/schemas/whatsappConnections';
import { errorText } from '../../api/client';
import { whatsappConnectionKeys, whatsappConnectionsApi } from '../../api/whatsappConnections';
import { Badge } from '../ui/badge';
import { Button } from '../ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../ui/card';
import { ConfirmDialog } from '../ui/confirm-dialog';

const t = messages.whatsappConnect;

/** The numbers a user connected through Embedded Signup, each with the administrator's Disconnect (its campaigns pause). */
export function ConnectedNumbersCard({ userId }: { userId: number }) {
  const queryClient = useQueryClient();
  const connections = useQuery({ queryKey: whatsappConnectionKeys.admin(userId), queryFn: () => whatsappConnectionsApi.adminList(userId) });
  const [chosen, setChosen] = useState<TWhatsappConnection | null>(null);
  const disconnect = useMutation({
    mutationFn: (id: number) => whatsappConnectionsApi.adminDisconnect(userId, id),
    onSuccess: (answer) => toast.success(answer.message),
    onError: (error) => toast.error(errorText(error, messages.common.unknownError)),
    onSettled: () => {
      setChosen(null);
      void queryClient.invalidateQueries({ queryKey: whatsappConnectionKeys.admin(userId) });
    },
  });
  const list = connections.data?.connections ?? [];
  return (
    <Card data-testid="connected-numbers-card">
      <CardHeader>
        <CardTitle>{t.adminTitle}</CardTitle>
        {list.length === 0 ? <CardDescription>{t.adminEmpty}</CardDescription> : null}
      </CardHeader>
      {list.length > 0 ? (
        <CardContent>
          <ul className="flex flex-col divide-y divide-slate-200 dark:divide-slate-700">
            {list.map((connection) => (
              <li key={connection.id} className="flex flex-wrap items-center justify-between gap-3 py-3">
                <div className="min-w-0">
                  <p className="font-medium text-slate-900 dark:text-white">{connection.display_phone_number ?? connection.phone_number_id}</p>
                  <p className="text-sm text-slate-600 dark:text-slate-300">
                    {connection.verified_name ?? ''} · WABA {connection.waba_id}
                  </p>
                  {connection.error && connection.status === 'failed' ? <p className="text-sm text-red-700 dark:text-red-300">{connection.error.message}</p> : null}
                </div>
                <div className="flex items-center gap-2">
                  <Badge variant={connection.status === 'connected' ? 'default' : connection.status === 'failed' ? 'destructive' : 'secondary'}>{t.statuses[connection.status]}</Badge>
                  {connection.status === 'connected' ? (
                    <Button size="sm" variant="outline" onClick={() => setChosen(connection)} disabled={disconnect.isPending}>
                      {t.disconnect}
                    </Button>
                  ) : null}
                </div>
              </li>
            ))}
          </ul>
        </CardContent>
      ) : null}
      <ConfirmDialog
        open={chosen !== null}
        title={t.disconnect}
        description={t.disconnectConfirm}
        confirmLabel={t.disconnect}
        busy={disconnect.isPending}
        onConfirm={() => chosen && disconnect.mutate(chosen.id)}
        onClose={() => setChosen(null)}
      />
    </Card>
  );
}
