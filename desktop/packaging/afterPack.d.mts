import type { FuseConfig } from '@electron/fuses';

/** The parts of electron-builder's AfterPackContext the hook reads. */
export interface PackContext {
  electronPlatformName: string;
  appOutDir: string;
  packager: { appInfo: { productFilename: string }; executableName?: string };
}

export function sandeshFuses(platform: string): FuseConfig;
export function packagedExecutable(context: PackContext): string;
export default function afterPack(context: PackContext): Promise<void>;
