/**
 * Shell IPC: opening web links in the system browser.
 */
import { z } from 'zod';
import { isAllowedExternalUrl, MAX_EXTERNAL_URL_LENGTH } from '../security';
import { settle, type BridgeHandlers, type ErrorLogger } from './result';

/** Only vetted http(s) links (see `isAllowedExternalUrl`): never file:, javascript: or custom schemes. */
export const ZExternalUrl = z
  .string({ error: 'The link must be text' })
  .min(1, { error: 'The link is empty' })
  .max(MAX_EXTERNAL_URL_LENGTH, { error: 'The link is too long' })
  .refine(isAllowedExternalUrl, { error: 'Only http and https links can be opened' });

export interface ShellHandlerDeps {
  /** Electron's `shell.openExternal` in production. */
  openExternal: (url: string) => Promise<void>;
  log?: ErrorLogger;
}

export function createShellHandlers(deps: ShellHandlerDeps): BridgeHandlers<'openExternal'> {
  const { openExternal, log } = deps;
  return {
    openExternal: (url) =>
      settle('shell:open-external', 'Could not open the link in the browser', async () => {
        await openExternal(ZExternalUrl.parse(url));
        return null;
      }, log),
  };
}
