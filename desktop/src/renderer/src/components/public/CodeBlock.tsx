import { useEffect, useRef, useState } from 'react';
import { Check, Copy } from 'lucide-react';
import { cn } from '../../lib/cn';
import { messages } from '@shared/messages';

/** How long "Copied" stays on the button (spec 002 §9: copy feedback lasts 2 seconds). */
const COPIED_FEEDBACK_MS = 2_000;

interface CodeBlockProps {
  code: string;
  /** Shown above the code and used in the copy button's accessible name. */
  label?: string;
  className?: string;
}

/** A dark, horizontally scrolling code block with a copy button. */
export function CodeBlock({ code, label, className }: CodeBlockProps): React.JSX.Element {
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useEffect(() => () => clearTimeout(timer.current), []);

  const handleCopy = async () => {
    try {
      await navigator.clipboard.writeText(code);
    } catch {
      // Clipboard access can be refused (insecure origin, permissions); the code stays selectable.
      return;
    }
    setCopied(true);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setCopied(false), COPIED_FEEDBACK_MS);
  };

  return (
    <div className={cn('overflow-hidden rounded-xl border border-slate-800 bg-slate-950', className)}>
      <div className="flex items-center justify-between gap-2 border-b border-slate-800 px-4 py-2">
        <span className="text-xs font-medium uppercase tracking-wide text-slate-400">{label ?? 'Code'}</span>
        <button
          type="button"
          onClick={handleCopy}
          className="inline-flex items-center gap-1.5 rounded-md px-2 py-1 text-xs font-medium text-slate-300 hover:bg-slate-800 hover:text-white focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-emerald-500"
        >
          {copied ? (
            <Check className="h-3.5 w-3.5 text-emerald-400" aria-hidden="true" />
          ) : (
            <Copy className="h-3.5 w-3.5" aria-hidden="true" />
          )}
          {copied ? messages.publicSite.copied : messages.publicSite.copy}
          {label && <span className="sr-only"> {label}</span>}
        </button>
        <span role="status" className="sr-only">
          {copied ? messages.publicSite.copied : ''}
        </span>
      </div>
      <pre className="overflow-x-auto p-4 text-[0.8rem] leading-6 text-slate-100" tabIndex={0}>
        <code>{code}</code>
      </pre>
    </div>
  );
}
