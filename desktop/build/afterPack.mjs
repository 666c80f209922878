// electron-builder afterPack hook (electron-builder.yml `afterPack`): flips Electron's fuses in
// the packaged binary before it is signed, so the shipped app cannot be turned into a plain
// Node.js runtime (RunAsNode, NODE_OPTIONS, --inspect) nor load code from outside app.asar, and
// its cookies are encrypted at rest. See SECURITY.md.
import path from 'node:path';
import { flipFuses, FuseV1Options, FuseVersion } from '@electron/fuses';

/** The fuses every packaged build carries. */
export const FUSES = {
  version: FuseVersion.V1,
  [FuseV1Options.RunAsNode]: false,
  [FuseV1Options.EnableNodeOptionsEnvironmentVariable]: false,
  [FuseV1Options.EnableNodeCliInspectArguments]: false,
  [FuseV1Options.EnableCookieEncryption]: true,
  [FuseV1Options.OnlyLoadAppFromAsar]: true,
};

/** Where electron-builder put the Electron executable for this platform. */
export function electronBinaryPath(context) {
  const name = context.packager.appInfo.productFilename;
  switch (context.electronPlatformName) {
    case 'darwin':
    case 'mas':
      return path.join(context.appOutDir, `${name}.app`);
    case 'win32':
      return path.join(context.appOutDir, `${name}.exe`);
    default:
      return path.join(context.appOutDir, context.packager.executableName ?? name.toLowerCase());
  }
}

export default async function afterPack(context) {
  // arm64 macOS refuses a binary whose ad-hoc signature no longer matches: re-sign it.
  const resetAdHocDarwinSignature = context.electronPlatformName === 'darwin' && context.arch === 3;
  await flipFuses(electronBinaryPath(context), { ...FUSES, resetAdHocDarwinSignature });
}
