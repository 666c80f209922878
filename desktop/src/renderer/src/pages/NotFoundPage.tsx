import { ArrowLeft, SearchX } from 'lucide-react';
import { useNavigate } from 'react-router-dom';
import { messages } from '@shared/messages';
import { Button } from '../components/ui/button';

/** Any unknown path (spec 000 §2.1). 'Go back' returns to the previous page. */
export function NotFoundPage() {
  const navigate = useNavigate();
  return (
    <div className="flex min-h-[60vh] flex-col items-center justify-center gap-4 p-6 text-center">
      <span className="flex size-16 items-center justify-center rounded-full bg-slate-100 text-slate-500 dark:bg-slate-800 dark:text-slate-400">
        <SearchX className="size-8" aria-hidden="true" />
      </span>
      <p className="text-5xl font-bold tracking-tight text-slate-300 dark:text-slate-700" aria-hidden="true">
        404
      </p>
      <h2 className="text-2xl font-semibold text-slate-900 dark:text-white">{messages.common.pageNotFound}</h2>
      <Button variant="outline" onClick={() => navigate(-1)}>
        <ArrowLeft aria-hidden="true" />
        {messages.common.goBack}
      </Button>
    </div>
  );
}
