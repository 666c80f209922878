/**
 * Issue 11, item 11: the packaged desktop app carries Electron fuses. Loads electron-builder.yml
 * and the afterPack module it names, runs the hook on a stand-in Electron binary (a fuse wire
 * behind Electron's sentinel, all fuses at Electron's defaults) and reads the wire back.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { getCurrentFuseWire, FuseV1Options } from '@electron/fuses';
import { describe, expect, it } from 'vitest';

const root = path.resolve(__dirname, '../..');
const SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX';
const ON = 49;
const OFF = 48;

type AfterPack = (context: { appOutDir: string; electronPlatformName: string; arch: number; packager: { appInfo: { productFilename: string }; executableName: string } }) => Promise<void>;

describe('packaged desktop app', () => {
  it('flips the fuses in afterPack: no RunAsNode, NODE_OPTIONS or --inspect; cookies encrypted; app only from asar', async () => {
    // A top-level `afterPack: <path>` key of electron-builder.yml.
    const afterPack = /^afterPack:\s*(\S+)\s*$/m.exec(fs.readFileSync(path.join(root, 'electron-builder.yml'), 'utf8'))?.[1];
    expect(afterPack).toBeTruthy();
    const hook = (await import(pathToFileURL(path.join(root, afterPack!)).href)) as { default: AfterPack };

    const appOutDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sandesh-fuses-'));
    try {
      // Electron's defaults: RunAsNode, cookie encryption off, NODE_OPTIONS, inspect on, asar integrity off, asar-only off.
      const wire = Buffer.from([ON, OFF, ON, ON, OFF, OFF, OFF, ON, ON]);
      const binary = Buffer.concat([Buffer.alloc(4096, 7), Buffer.from(SENTINEL), Buffer.from([1, wire.length]), wire, Buffer.alloc(4096, 7)]);
      fs.writeFileSync(path.join(appOutDir, 'sandesh'), binary);

      await hook.default({ appOutDir, electronPlatformName: 'linux', arch: 1, packager: { appInfo: { productFilename: 'Sandesh' }, executableName: 'sandesh' } });

      const fuses = (await getCurrentFuseWire(path.join(appOutDir, 'sandesh'))) as unknown as Record<number, number>;
      expect(fuses[FuseV1Options.RunAsNode]).toBe(OFF);
      expect(fuses[FuseV1Options.EnableNodeOptionsEnvironmentVariable]).toBe(OFF);
      expect(fuses[FuseV1Options.EnableNodeCliInspectArguments]).toBe(OFF);
      expect(fuses[FuseV1Options.EnableCookieEncryption]).toBe(ON);
      expect(fuses[FuseV1Options.OnlyLoadAppFromAsar]).toBe(ON);
    } finally {
      fs.rmSync(appOutDir, { recursive: true, force: true });
    }
  });
});
