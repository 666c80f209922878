import { createDesktopPlatform } from './desktop';
import type { Platform } from './types';
import { webPlatform } from './web';

export type { Platform, SessionPersistence } from './types';
export type { SpreadsheetAccess } from './spreadsheetTypes';

/**
 * Chosen once at start-up: the same bundle runs in a browser and inside Electron, where the
 * preload has exposed `window.desktop`. Nothing else in the renderer reads `window.desktop`.
 */
export const platform: Platform =
  typeof window !== 'undefined' && window.desktop ? createDesktopPlatform(window.desktop) : webPlatform;
