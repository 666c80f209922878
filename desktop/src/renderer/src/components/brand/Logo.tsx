import { MessageCircle } from 'lucide-react';
import { cn } from '../../lib/cn';

/** The product mark: a chat bubble on WhatsApp green. */
export function LogoMark({ className, spinning = false }: { className?: string; spinning?: boolean }) {
  return (
    <span
      aria-hidden="true"
      className={cn(
        'flex size-9 shrink-0 items-center justify-center rounded-xl bg-[#25D366] text-white shadow-sm',
        spinning && 'animate-spin [animation-duration:1.6s]',
        className,
      )}
    >
      <MessageCircle className="size-1/2" />
    </span>
  );
}
