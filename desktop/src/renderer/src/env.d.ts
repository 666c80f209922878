import type { DesktopBridge } from '@shared/desktop';

declare global {
  interface Window {
    /** Present only inside the Electron shell (the preload exposes it); read it via `platform/`. */
    desktop?: DesktopBridge;
  }
}

export {};
