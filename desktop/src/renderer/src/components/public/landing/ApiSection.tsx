import { Link } from 'react-router-dom';
import { ArrowRight } from 'lucide-react';
import { cn } from '../../../lib/cn';
import { CodeBlock } from '../CodeBlock';
import { publicStyles } from '../PublicLayout';
import { sectionShell } from './common';

/** The API's samples as the docs page writes them (the page passes them from its content). */
export interface ApiSamples {
  /** A cURL send against this server's origin. */
  curl: string;
  exampleResponse: unknown;
  sendEndpoint: string;
  reportsEndpoint: string;
}

export function ApiSection({ samples }: { samples: ApiSamples }): React.JSX.Element {
  const endpoints = [
    { method: 'POST', path: samples.sendEndpoint, description: 'Send a template message with its variables.' },
    { method: 'GET', path: samples.reportsEndpoint, description: 'Delivery and read status, with filters (your API key, or a signed-in session).' },
  ] as const;

  return (
    <section aria-labelledby="api-heading" className="bg-slate-900 py-20 text-white dark:bg-slate-900/60">
      <div className={cn(sectionShell, 'grid items-center gap-12 lg:grid-cols-2')}>
        <div>
          <p className="text-sm font-semibold uppercase tracking-wide text-emerald-400">Developers</p>
          <h2 id="api-heading" className="mt-2 text-3xl font-bold tracking-tight sm:text-4xl">
            A REST API that fits in one request
          </h2>
          <p className="mt-4 text-lg leading-8 text-slate-300">
            Trigger OTPs, order updates and reminders from your own app. Authenticate with an API key, send JSON, get a
            message id back, and follow it in the reports.
          </p>
          <ul className="mt-8 space-y-3">
            {endpoints.map((endpoint) => (
              <li key={endpoint.path} className="flex flex-wrap items-center gap-3 rounded-xl border border-slate-700 bg-slate-800/60 px-4 py-3">
                <span
                  className={cn(
                    'rounded-md px-2 py-0.5 font-mono text-xs font-bold',
                    endpoint.method === 'POST' ? 'bg-emerald-500 text-slate-950' : 'bg-sky-400 text-slate-950',
                  )}
                >
                  {endpoint.method}
                </span>
                <code className="font-mono text-sm text-white">{endpoint.path}</code>
                <span className="text-sm text-slate-400">{endpoint.description}</span>
              </li>
            ))}
          </ul>
          <div className="mt-8 flex flex-wrap gap-3">
            <Link
              to="/docs"
              className={cn(
                'inline-flex items-center gap-2 rounded-lg bg-emerald-500 px-4 py-2 text-sm font-semibold text-slate-950 hover:bg-emerald-400',
                publicStyles.focusRing,
                'focus-visible:ring-offset-slate-900',
              )}
            >
              API reference
              <ArrowRight className="h-4 w-4" aria-hidden="true" />
            </Link>
          </div>
        </div>
        <div className="min-w-0 space-y-4">
          <CodeBlock code={samples.curl} label="cURL" />
          <CodeBlock code={JSON.stringify(samples.exampleResponse, null, 2)} label="Response" />
        </div>
      </div>
    </section>
  );
}
