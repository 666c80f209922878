import { cn } from '../../lib/cn';

/**
 * A name in an approval table: one line, cut with an ellipsis, the whole name in the tooltip
 * (names wrapped mid-word). The full name is also in the row's button labels and in
 * the preview, so nothing is only in the tooltip.
 */
export function TruncatedName({ name, className }: { name: string; className?: string }) {
  return (
    <span title={name} className={cn('block max-w-64 truncate', className)}>
      {name}
    </span>
  );
}
