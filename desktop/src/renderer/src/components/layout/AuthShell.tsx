import { ArrowLeft } from 'lucide-react';
import type { ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import { messages } from '@shared/messages';
import { usePublicConfig } from '../../context/publicConfig';
import { LogoMark } from '../brand/Logo';
import { ThemeToggle } from '../ThemeToggle';
import { Button } from '../ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '../ui/card';

interface AuthShellProps {
  title: string;
  description?: ReactNode;
  /** Extra navigation next to Back to Home (Back to Login in the forgot-password modes). */
  actions?: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
}

/** The frame of /login and /signup: no app header or footer (spec 000 §2.6). */
export function AuthShell({ title, description, actions, children, footer }: AuthShellProps) {
  const navigate = useNavigate();
  const { brandName } = usePublicConfig();
  return (
    <div className="flex min-h-screen flex-col bg-gradient-to-br from-emerald-50 via-white to-slate-100 dark:from-slate-950 dark:via-slate-950 dark:to-emerald-950/40">
      <div className="flex items-center justify-between gap-2 p-4 sm:p-6">
        <div className="flex flex-wrap items-center gap-2">
          <Button variant="ghost" onClick={() => navigate('/')}>
            <ArrowLeft aria-hidden="true" />
            {messages.publicSite.backToHome}
          </Button>
          {actions}
        </div>
        <ThemeToggle />
      </div>
      <main className="flex flex-1 items-start justify-center px-4 pb-12 sm:items-center">
        <div className="w-full max-w-md">
          <div className="mb-6 flex flex-col items-center gap-2 text-center">
            <LogoMark className="size-12 rounded-2xl" />
            <p className="text-sm font-semibold tracking-wide text-emerald-700 dark:text-emerald-400">{brandName}</p>
          </div>
          <Card className="shadow-lg">
            <CardHeader className="text-center">
              <h1 className="text-2xl font-bold tracking-tight">{title}</h1>
              {description ? <CardDescription>{description}</CardDescription> : null}
            </CardHeader>
            <CardContent>{children}</CardContent>
          </Card>
          {footer ? <div className="mt-6 text-center text-sm text-slate-600 dark:text-slate-300">{footer}</div> : null}
        </div>
      </main>
    </div>
  );
}
