import { useQuery } from '@tanstack/react-query';
import { Activity, FileCheck2, Gauge, UserRound } from 'lucide-react';
import { useState } from 'react';
import { messages } from '@shared/messages';
import { formatIndianNumber } from '@shared/money';
import { apiKeyQueryKeys, apiKeysApi } from '../../api/apiKeys';
import { errorText } from '../../api/client';
import { StatGrid, statTints, type Stat } from '../../components/admin/StatCards';
import { ApiConsole } from '../../components/apiManagement/ApiConsole';
import { ApiDocsTabs } from '../../components/apiManagement/ApiDocsTabs';
import { ApiKeysCard } from '../../components/apiManagement/ApiKeysCard';
import { WebhookEndpointsCard } from '../../components/apiManagement/WebhookEndpointsCard';
import { DEFAULT_RATE_LIMIT_LABEL, publicApiBaseUrl } from '../../lib/apiConsole';
import { platform } from '../../platform';
import { useSessionStore } from '../../stores/sessionStore';

/** The public API's address: the configured server on desktop, this page's origin on the web. */
function useApiBaseUrl(): string {
  const server = useQuery({ queryKey: ['platform', 'server-url'], queryFn: () => platform.serverUrl(), staleTime: Infinity });
  return publicApiBaseUrl(server.data ?? '', window.location.origin);
}

/** /user/api-management (spec 002 "API Management"): keys, testing console, samples and docs. */
export function ApiManagementPage() {
  const username = useSessionStore((state) => state.user?.username) ?? '';
  const baseUrl = useApiBaseUrl();
  // A key created during this visit fills the console; it is never stored anywhere else.
  const [consoleKey, setConsoleKey] = useState('');
  const templates = useQuery({ queryKey: apiKeyQueryKeys.templates, queryFn: apiKeysApi.approvedTemplates });

  const stats: Stat[] = [
    { label: 'API Status', value: 'Online', icon: Activity, tint: statTints.emerald, hint: 'Send API available' },
    {
      label: 'Approved Templates',
      value: templates.data ? formatIndianNumber(templates.data.length) : '—',
      icon: FileCheck2,
      tint: statTints.sky,
      hint: 'Ready to send through the API',
    },
    { label: 'Rate Limit', value: DEFAULT_RATE_LIMIT_LABEL, icon: Gauge, tint: statTints.amber, hint: 'per IP address' },
    { label: 'Username', value: username, icon: UserRound, tint: statTints.violet, hint: 'Send it as username' },
  ];

  return (
    <div className="flex flex-col gap-6">
      <div>
        <h2 className="text-2xl font-bold tracking-tight">API Management</h2>
        <p className="mt-1 text-sm text-slate-500 dark:text-slate-400">Create API keys, try the send API and copy working code.</p>
      </div>

      <StatGrid stats={stats} isLoading={false} />

      <ApiKeysCard onCreated={setConsoleKey} />

      <WebhookEndpointsCard />

      <ApiConsole
        username={username}
        baseUrl={baseUrl}
        apiKey={consoleKey}
        onApiKeyChange={setConsoleKey}
        templates={templates.data ?? []}
        templatesLoading={templates.isPending}
        templatesError={templates.isError ? errorText(templates.error, messages.sending.templatesLoadFailed, messages.sending.templatesLoadNetwork) : null}
      />

      <ApiDocsTabs baseUrl={baseUrl} />
    </div>
  );
}
