import { Copy, ExternalLink, FileText, ImageIcon, Phone, Reply, Video } from 'lucide-react';
import { cn } from '../../lib/cn';
import type { PreviewButton, PreviewHeader, TemplatePreview } from '../../lib/templatePreview';
import { Spinner } from '../ui/spinner';
import { WhatsAppText } from './WhatsAppText';

const buttonIcons: Record<string, typeof Reply> = {
  URL: ExternalLink,
  PHONE_NUMBER: Phone,
  QUICK_REPLY: Reply,
  OTP: Copy,
};

/** WhatsApp's own chat colours, light and dark, so the preview reads as the message will. */
const bubbleClass = 'bg-white text-[#111b21] shadow-sm dark:bg-[#202c33] dark:text-[#e9edef]';
const placeholderClass =
  'flex aspect-video w-full flex-col items-center justify-center gap-2 rounded-md bg-slate-100 px-2 text-center text-xs text-slate-500 dark:bg-slate-800 dark:text-slate-400';

export interface PreviewMedia {
  /** An address the element can load: an object URL of a chosen file or a data: URL of a stored one. */
  src: string | null;
  isLoading?: boolean;
}

function MediaHeader({ header, media }: { header: Extract<PreviewHeader, { kind: 'media' }>; media: PreviewMedia }) {
  const label = header.name ?? (header.format === 'IMAGE' ? 'Image' : header.format === 'VIDEO' ? 'Video' : 'Document');
  if (media.isLoading) {
    return (
      <div className={placeholderClass}>
        <Spinner label="Loading header file" />
      </div>
    );
  }
  if (media.src && header.format === 'IMAGE') {
    return <img src={media.src} alt={`Header image ${label}`} className="max-h-56 w-full rounded-md object-cover" />;
  }
  if (media.src && header.format === 'VIDEO') {
    return <video src={media.src} controls muted className="max-h-56 w-full rounded-md bg-black" aria-label={`Header video ${label}`} />;
  }
  const Icon = header.format === 'IMAGE' ? ImageIcon : header.format === 'VIDEO' ? Video : FileText;
  return (
    <div className={placeholderClass}>
      <Icon className="size-8" aria-hidden="true" />
      <span className="max-w-full truncate">{header.name ?? `No ${label.toLowerCase()} chosen yet`}</span>
    </div>
  );
}

function BubbleButton({ button }: { button: PreviewButton }) {
  const Icon = buttonIcons[button.type] ?? Reply;
  return (
    <li className={cn('flex items-center justify-center gap-2 rounded-lg px-3 py-2 text-sm font-medium', bubbleClass)}>
      <Icon className="size-4 shrink-0 text-[#00a5f4] dark:text-[#53bdeb]" aria-hidden="true" />
      <span className="truncate text-[#027eb5] dark:text-[#53bdeb]">{button.text}</span>
    </li>
  );
}

/**
 * A template as the received WhatsApp message: header (text or media), body with WhatsApp's
 * formatting, footer and buttons, on the chat wallpaper. Decorative for screen readers apart
 * from its text, which is read in order.
 */
export function MessagePreview({
  preview,
  media = { src: null },
  emptyBody = 'Your message body will appear here.',
  className,
}: {
  preview: TemplatePreview;
  media?: PreviewMedia;
  emptyBody?: string;
  className?: string;
}) {
  return (
    <div className={cn('rounded-xl bg-[#efeae2] p-4 dark:bg-[#0b141a]', className)} data-testid="template-preview">
      <div className="flex max-w-xs flex-col gap-1">
        <div className={cn('flex flex-col gap-1.5 rounded-lg rounded-tl-none p-2', bubbleClass)}>
          {preview.header?.kind === 'media' ? <MediaHeader header={preview.header} media={media} /> : null}
          {preview.header?.kind === 'text' ? (
            <p className="px-1 font-semibold break-words">
              <WhatsAppText text={preview.header.text} />
            </p>
          ) : null}
          {preview.body.trim() ? (
            <p className="px-1 text-sm whitespace-pre-wrap break-words">
              <WhatsAppText text={preview.body} />
            </p>
          ) : (
            <p className="px-1 text-sm italic text-[#667781] dark:text-[#8696a0]">{emptyBody}</p>
          )}
          {preview.footer ? <p className="px-1 text-xs text-[#667781] dark:text-[#8696a0]">{preview.footer}</p> : null}
        </div>
        {preview.buttons.length > 0 ? (
          <ul className="flex flex-col gap-1" aria-label="Message buttons">
            {preview.buttons.map((button, index) => (
              <BubbleButton key={index} button={button} />
            ))}
          </ul>
        ) : null}
      </div>
    </div>
  );
}
