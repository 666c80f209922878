import { cn } from '../../lib/cn';
import { formatWhatsAppText } from '../../lib/whatsappFormat';

/**
 * Text with WhatsApp's inline formatting (*bold*, _italic_, ~strike~, ```mono```) rendered as
 * the recipient will see it: the one renderer of every place a message body is shown.
 * Built from segments, never from HTML, so user text cannot inject markup.
 */
export function WhatsAppText({ text }: { text: string }) {
  return (
    <>
      {formatWhatsAppText(text).map((segment, index) =>
        segment.bold || segment.italic || segment.strike || segment.mono ? (
          <span
            key={index}
            data-format={[segment.bold && 'bold', segment.italic && 'italic', segment.strike && 'strike', segment.mono && 'mono'].filter(Boolean).join(' ')}
            className={cn(
              segment.bold && 'font-semibold',
              segment.italic && 'italic',
              segment.strike && 'line-through',
              segment.mono && 'font-mono text-[0.8rem]',
            )}
          >
            {segment.text}
          </span>
        ) : (
          <span key={index}>{segment.text}</span>
        ),
      )}
    </>
  );
}
