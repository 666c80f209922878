import { useEffect, useState } from 'react';

/** A value as it was once edits paused for `delayMs`: search boxes and live counts ask the server once per pause, not per keystroke. */
export function useSettled<T>(value: T, delayMs = 300): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = window.setTimeout(() => setSettled(value), delayMs);
    return () => window.clearTimeout(timer);
  }, [value, delayMs]);
  return settled;
}
