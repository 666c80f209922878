import { Check, Copy } from 'lucide-react';
import { messages } from '@shared/messages';
import { useCopyFeedback } from '../../hooks/useCopyFeedback';
import { Button, type ButtonProps } from '../ui/button';

/** A Copy button that says "Copied" for two seconds; `label` names what it copies for screen readers. */
export function CopyButton({ text, label, ...props }: { text: string; label: string } & Omit<ButtonProps, 'onClick' | 'children'>) {
  const { copied, copy } = useCopyFeedback();
  return (
    <>
      <Button variant="outline" size="sm" onClick={() => void copy(text)} {...props}>
        {copied ? <Check className="text-emerald-600 dark:text-emerald-400" aria-hidden="true" /> : <Copy aria-hidden="true" />}
        {copied ? messages.publicSite.copied : messages.publicSite.copy}
        <span className="sr-only"> {label}</span>
      </Button>
      <span role="status" className="sr-only">
        {copied ? messages.publicSite.copied : ''}
      </span>
    </>
  );
}
