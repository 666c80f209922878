import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CheckCircle2, Circle, X } from 'lucide-react';
import { Link } from 'react-router-dom';
import { toast } from 'sonner';
import { fillMessage, messages } from '@shared/messages';
import type { TOnboardingStepKey } from '@shared/types';
import { errorText } from '../../api/client';
import { onboardingApi, onboardingKeys } from '../../api/onboarding';
import { cn } from '../../lib/cn';
import { Button, focusRing } from '../ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../ui/card';

const o = messages.onboarding;

/** Where each step is done. */
const stepLinks: Record<TOnboardingStepKey, string> = {
  topUp: '/user/wallet',
  createTemplate: '/user/templates/create',
  templateApproved: '/user/templates',
  firstSend: '/user/whatsapp-bulk',
  createApiKey: '/user/api-management',
};

/**
 * The getting-started checklist on the user dashboard: each step ticks itself off from
 * what the account did (GET /api/onboarding, read again whenever the dashboard is shown), and the
 * card is gone once every step is done or the user dismissed it.
 */
export function OnboardingChecklist() {
  const queryClient = useQueryClient();
  const query = useQuery({ queryKey: onboardingKeys.all, queryFn: onboardingApi.get, refetchOnMount: 'always' });
  const dismiss = useMutation({
    mutationFn: onboardingApi.dismiss,
    onSuccess: (data) => {
      queryClient.setQueryData(onboardingKeys.all, data);
      toast.success(o.dismissed);
    },
    onError: (error) => toast.error(errorText(error, o.dismissFailed)),
  });
  const onboarding = query.data?.onboarding;
  if (!onboarding?.visible) return null;

  return (
    <Card aria-labelledby="onboarding-title" role="region" data-testid="onboarding-checklist">
      <CardHeader className="flex-row items-start justify-between gap-4">
        <div>
          <CardTitle id="onboarding-title">{o.title}</CardTitle>
          <CardDescription>
            {o.description} {fillMessage(o.progress, { done: onboarding.completed, total: onboarding.total })}
          </CardDescription>
        </div>
        <Button variant="ghost" size="icon" disabled={dismiss.isPending} onClick={() => dismiss.mutate()} title={o.dismiss}>
          <X aria-hidden="true" />
          <span className="sr-only">{o.dismiss}</span>
        </Button>
      </CardHeader>
      <CardContent>
        <ol className="grid gap-2 sm:grid-cols-2 lg:grid-cols-5">
          {onboarding.steps.map((step) => (
            <li key={step.key}>
              <Link
                to={stepLinks[step.key]}
                data-done={step.done}
                className={cn(
                  'flex h-full items-center gap-2 rounded-lg border px-3 py-2.5 text-sm font-medium transition-colors',
                  step.done
                    ? 'border-emerald-200 bg-emerald-50 text-emerald-800 dark:border-emerald-500/30 dark:bg-emerald-500/10 dark:text-emerald-200'
                    : 'border-slate-200 text-slate-700 hover:bg-slate-50 dark:border-slate-700 dark:text-slate-200 dark:hover:bg-slate-800',
                  focusRing,
                )}
              >
                {step.done ? (
                  <CheckCircle2 className="size-4 shrink-0 text-emerald-600 dark:text-emerald-400" aria-hidden="true" />
                ) : (
                  <Circle className="size-4 shrink-0 text-slate-400" aria-hidden="true" />
                )}
                <span>{o.steps[step.key]}</span>
                <span className="sr-only">{step.done ? ' (done)' : ' (to do)'}</span>
              </Link>
            </li>
          ))}
        </ol>
      </CardContent>
    </Card>
  );
}
