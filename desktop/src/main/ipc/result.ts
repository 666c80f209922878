/**
 * Helpers shared by the IPC handlers: every handler answers a `BridgeResult` and never throws,
 * because an exception crossing `ipcMain.handle` reaches the renderer as an opaque rejected
 * promise carrying main-process internals.
 */
import type { BridgeResult, DesktopBridge, DesktopBridgeMethod } from '@shared/desktop';
import { z } from 'zod';
import { firstIssueMessage } from '../settings';

/**
 * A main-process implementation of a bridge method. Arguments arrive from the renderer and are
 * untrusted, so each is `unknown` until its handler has validated it.
 */
export type BridgeHandler<K extends DesktopBridgeMethod> = (
  ...args: Untrusted<Parameters<DesktopBridge[K]>>
) => ReturnType<DesktopBridge[K]>;

/** The same argument list with every element `unknown` (a homomorphic map keeps it a tuple). */
export type Untrusted<T extends unknown[]> = { [I in keyof T]: unknown };

export type BridgeHandlers<K extends DesktopBridgeMethod = DesktopBridgeMethod> = {
  [P in K]: BridgeHandler<P>;
};

export function ok<T>(value: T): BridgeResult<T> {
  return { ok: true, value };
}

export function fail(error: string): { ok: false; error: string } {
  return { ok: false, error };
}

/** Receives failures for the main-process log; the renderer only sees the short message. */
export type ErrorLogger = (context: string, error: unknown) => void;

export const consoleErrorLogger: ErrorLogger = (context, error) => {
  console.error(`[desktop ipc] ${context}:`, error);
};

/**
 * Runs a handler body. Validation errors answer their first message (written for the user);
 * anything else is logged here and answered with `failureMessage`, so OS error details (keychain
 * paths, D-Bus names) stay in the main process.
 */
export async function settle<T>(
  context: string,
  failureMessage: string,
  body: () => Promise<T>,
  log: ErrorLogger = consoleErrorLogger,
): Promise<BridgeResult<T>> {
  try {
    return ok(await body());
  } catch (error) {
    if (error instanceof z.ZodError) return fail(firstIssueMessage(error));
    log(context, error);
    return fail(failureMessage);
  }
}
