/**
 * The packaged app's Electron fuses: electron-builder runs desktop/packaging/afterPack.mjs on the
 * packaged binary. Here the hook runs for real on stand-in binaries that carry the fuse wire the
 * way Electron's do (sentinel, version, length, one byte per fuse, all enabled as Electron ships
 * them), and the wire is read back with @electron/fuses.
 */
import { mkdtemp, readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { FuseState, FuseV1Options, getCurrentFuseWire } from '@electron/fuses';
import { afterEach, describe, expect, it } from 'vitest';
import afterPack, { packagedExecutable, type PackContext } from '../../desktop/packaging/afterPack.mjs';

const projectRoot = fileURLToPath(new URL('../..', import.meta.url));
const SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX';
const FUSE_COUNT = 9;

/** Bytes shaped like an Electron binary's fuse wire, padded with filler on both sides. */
function standInBinary(): Buffer {
  const wire = Buffer.concat([Buffer.from(SENTINEL), Buffer.from([1, FUSE_COUNT]), Buffer.alloc(FUSE_COUNT, FuseState.ENABLE)]);
  return Buffer.concat([Buffer.alloc(4096, 7), wire, Buffer.alloc(4096, 7)]);
}

const folders: string[] = [];
afterEach(async () => {
  for (const folder of folders.splice(0)) await rm(folder, { recursive: true, force: true });
});

async function packagedApp(platform: string): Promise<PackContext> {
  const appOutDir = await mkdtemp(path.join(tmpdir(), 'sandesh-fuses-'));
  folders.push(appOutDir);
  const context: PackContext = { electronPlatformName: platform, appOutDir, packager: { appInfo: { productFilename: 'Sandesh' }, executableName: 'sandesh' } };
  let binary = packagedExecutable(context);
  if (platform === 'darwin') {
    binary = path.join(binary, 'Contents', 'Frameworks', 'Electron Framework.framework', 'Electron Framework');
  }
  await mkdir(path.dirname(binary), { recursive: true });
  await writeFile(binary, standInBinary());
  return context;
}

describe('desktop packaging fuses', () => {
  it('electron-builder.yml runs the fuses hook after packing', async () => {
    const config = await readFile(path.join(projectRoot, 'electron-builder.yml'), 'utf8');
    const hook = /^afterPack:\s*(\S+)\s*$/m.exec(config)?.[1];
    expect(hook).toBe('./desktop/packaging/afterPack.mjs');
    expect(existsSync(path.join(projectRoot, hook as string))).toBe(true);
  });

  it.each(['linux', 'win32', 'darwin'])('turns RunAsNode, NODE_OPTIONS and inspect off and asar-only loading on (%s)', async (platform) => {
    const context = await packagedApp(platform);
    await afterPack(context);
    const wire = await getCurrentFuseWire(packagedExecutable(context));
    expect(wire[FuseV1Options.RunAsNode]).toBe(FuseState.DISABLE);
    expect(wire[FuseV1Options.EnableNodeOptionsEnvironmentVariable]).toBe(FuseState.DISABLE);
    expect(wire[FuseV1Options.EnableNodeCliInspectArguments]).toBe(FuseState.DISABLE);
    expect(wire[FuseV1Options.GrantFileProtocolExtraPrivileges]).toBe(FuseState.DISABLE);
    expect(wire[FuseV1Options.EnableCookieEncryption]).toBe(FuseState.ENABLE);
    expect(wire[FuseV1Options.OnlyLoadAppFromAsar]).toBe(FuseState.ENABLE);
    // Electron validates the asar's integrity only on macOS and Windows.
    expect(wire[FuseV1Options.EnableEmbeddedAsarIntegrityValidation]).toBe(platform === "linux" ? FuseState.DISABLE : FuseState.ENABLE);
  });
});
