import { useCallback, useEffect, useRef, useState } from 'react';

/** How long "Copied" stays (spec 002 §9: copy feedback lasts 2 seconds). */
export const COPIED_FEEDBACK_MS = 2_000;

/** Copies text to the clipboard and reports `copied` for two seconds afterwards. */
export function useCopyFeedback(): { copied: boolean; copy: (text: string) => Promise<boolean> } {
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useEffect(() => () => clearTimeout(timer.current), []);

  const copy = useCallback(async (text: string) => {
    try {
      await navigator.clipboard.writeText(text);
    } catch {
      // Clipboard access can be refused (insecure origin, permissions); the text stays selectable.
      return false;
    }
    setCopied(true);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setCopied(false), COPIED_FEEDBACK_MS);
    return true;
  }, []);

  return { copied, copy };
}
