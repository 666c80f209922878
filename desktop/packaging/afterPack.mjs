// electron-builder's afterPack hook: flips the Electron fuses of the packaged binary before it is
// signed and wrapped into an installer. Fuses are compiled-in switches that no command-line flag,
// environment variable or script in the app can turn back on (electronjs.org/docs/latest/tutorial/fuses).
import path from 'node:path';
import { flipFuses, FuseV1Options, FuseVersion } from '@electron/fuses';

/**
 * What the packaged app may do. Off: running as plain Node (ELECTRON_RUN_AS_NODE), NODE_OPTIONS,
 * --inspect and friends, extra file:// privileges (the renderer is served from app://). On: cookie
 * encryption at rest, loading the app only from its asar archive, and (macOS and Windows, where
 * Electron supports it) validating the archive against the integrity hash electron-builder embeds.
 */
export function sandeshFuses(platform) {
  return {
    version: FuseVersion.V1,
    strictlyRequireAllFuses: false,
    // An unsigned arm64 mac binary must be re-signed ad hoc after its bytes change, or it will not
    // start; that takes `codesign`, which only a mac has (and only a mac can build the dmg).
    resetAdHocDarwinSignature: platform === 'darwin' && process.platform === 'darwin',
    [FuseV1Options.RunAsNode]: false,
    [FuseV1Options.EnableCookieEncryption]: true,
    [FuseV1Options.EnableNodeOptionsEnvironmentVariable]: false,
    [FuseV1Options.EnableNodeCliInspectArguments]: false,
    [FuseV1Options.EnableEmbeddedAsarIntegrityValidation]: platform === 'darwin' || platform === 'win32',
    [FuseV1Options.OnlyLoadAppFromAsar]: true,
    [FuseV1Options.GrantFileProtocolExtraPrivileges]: false,
  };
}

/** The packaged Electron executable inside electron-builder's output folder for one platform. */
export function packagedExecutable(context) {
  const { electronPlatformName: platform, appOutDir, packager } = context;
  const name = packager.appInfo.productFilename;
  if (platform === 'darwin' || platform === 'mas') return path.join(appOutDir, `${name}.app`);
  if (platform === 'win32') return path.join(appOutDir, `${name}.exe`);
  return path.join(appOutDir, packager.executableName ?? name);
}

export default async function afterPack(context) {
  await flipFuses(packagedExecutable(context), sandeshFuses(context.electronPlatformName));
}
