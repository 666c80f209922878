/**
 * The desktop packaging, checked by what runs here (the Electron binary cannot be downloaded):
 * - the packaged app carries Electron fuses. Loads electron-builder.yml and the
 *   afterPack module it names, runs the hook on a stand-in Electron binary (a fuse wire behind
 *   Electron's sentinel, all fuses at Electron's defaults) and reads the wire back;
 * - targets (NSIS, dmg with the hardened runtime, AppImage and deb), app id, icons,
 *   file associations, what goes in the archive and what stays out of it, validated against
 *   electron-builder's own schema.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { getCurrentFuseWire, FuseV1Options } from '@electron/fuses';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

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

interface FileAssociation {
  ext: string;
  name: string;
  mimeType?: string;
  role?: string;
  rank?: string;
}

interface BuilderConfig {
  appId: string;
  productName: string;
  directories: { buildResources: string; output: string };
  files: string[];
  asarUnpack: string[];
  afterPack: string;
  fileAssociations: FileAssociation[];
  linux: { target: string[]; icon: string };
  win: { target: string[]; icon: string };
  nsis: Record<string, unknown>;
  mac: { target: string[]; icon: string; hardenedRuntime: boolean; entitlements: string; entitlementsInherit: string };
}

const configText = fs.readFileSync(path.join(root, 'electron-builder.yml'), 'utf8');
const config = parse(configText) as BuilderConfig;

const builderRequire = createRequire(path.join(root, 'package.json'));

/** electron-builder's own check of a configuration (its JSON schema), as `electron-builder` runs it. */
async function validateWithElectronBuilder(candidate: unknown): Promise<void> {
  const { validateConfiguration } = builderRequire('app-builder-lib/out/util/config/config') as { validateConfiguration(config: unknown, logger: unknown): Promise<void> };
  const { DebugLogger } = builderRequire('builder-util') as { DebugLogger: new (enabled: boolean) => unknown };
  await validateConfiguration(candidate, new DebugLogger(false));
}

/** The glob matcher electron-builder itself filters files with (its own dependency). */
const { minimatch } = createRequire(builderRequire.resolve('app-builder-lib/package.json'))('minimatch') as {
  minimatch(file: string, pattern: string, options?: { dot?: boolean }): boolean;
};
const matches = (file: string, pattern: string): boolean => minimatch(file, pattern, { dot: true });

/**
 * Whether electron-builder would put `file` in the app: production node_modules are copied unless
 * a `!` pattern drops them; other files only when a pattern names them; the last match decides.
 */
function packaged(file: string): boolean {
  let included = file.startsWith('node_modules/');
  for (const pattern of config.files) {
    const negated = pattern.startsWith('!');
    if (matches(file, negated ? pattern.slice(1) : pattern)) included = !negated;
  }
  return included;
}

/**
 * Two of these do real work (electron-builder's own schema check; drawing and deflating a 512 px
 * icon): 4-5 s each here with another suite running. vitest's default 5 s failed the icon test
 * beside three busy loops (2026-11-28); the unit projects' 20 s limit (vitest.config.ts) covers it.
 */
describe('electron-builder.yml', () => {
  it('is a configuration electron-builder accepts (and its check does refuse a wrong key)', async () => {
    await validateWithElectronBuilder(config);
    await expect(validateWithElectronBuilder({ ...config, fileAssociations: [{ ext: 'csv', colour: 'green' }] })).rejects.toThrow();
  });

  it('names the app and builds NSIS for Windows, a dmg for macOS, AppImage and deb for Linux', () => {
    expect(config.appId).toBe('in.sandesh.desktop');
    expect(config.productName).toBe('Sandesh');
    expect(config.win.target).toEqual(['nsis']);
    expect(config.nsis).toMatchObject({ oneClick: false, perMachine: false });
    expect(config.mac.target).toEqual(['dmg']);
    expect(config.linux.target).toEqual(['AppImage', 'deb']);
  });

  it('signs macOS builds with the hardened runtime and an entitlements file that allows the JIT and no more than needed', () => {
    expect(config.mac.hardenedRuntime).toBe(true);
    const entitlementsPath = path.join(root, config.mac.entitlements);
    expect(fs.existsSync(entitlementsPath)).toBe(true);
    expect(config.mac.entitlementsInherit).toBe(config.mac.entitlements);
    const plist = fs.readFileSync(entitlementsPath, 'utf8');
    const keys = [...plist.matchAll(/<key>([^<]+)<\/key>\s*<true\/>/g)].map((match) => match[1]);
    expect(keys).toEqual(['com.apple.security.cs.allow-jit', 'com.apple.security.cs.allow-unsigned-executable-memory']);
  });

  it('associates .csv and .xlsx files as an alternative viewer, never the default editor', () => {
    expect(config.fileAssociations.map((association) => association.ext)).toEqual(['csv', 'xlsx']);
    for (const association of config.fileAssociations) {
      expect(association).toMatchObject({ role: 'Viewer', rank: 'Alternate' });
      // Debian packages register associations by MIME type.
      expect(association.mimeType).toBeTruthy();
    }
  });

  it('packages the built app and the keychain binding, not the server, and unpacks the worker and native code', () => {
    for (const file of ['out/main/index.js', 'out/main/spreadsheetWorker.js', 'out/preload/index.cjs', 'out/renderer/index.html', 'package.json', 'node_modules/@napi-rs/keyring/index.js', 'node_modules/@napi-rs/keyring-linux-x64-gnu/keyring.linux-x64-gnu.node']) {
      expect(packaged(file), file).toBe(true);
    }
    for (const file of ['node_modules/koa/index.js', 'node_modules/better-sqlite3/build/Release/better_sqlite3.node', 'node_modules/@napi-rs/canvas/index.js', 'out/main/index.js.map', 'server/src/index.ts', 'desktop/src/main/index.ts']) {
      expect(packaged(file), file).toBe(false);
    }
    const unpacked = (file: string) => config.asarUnpack.some((pattern) => matches(file, pattern));
    expect(unpacked('out/main/spreadsheetWorker.js')).toBe(true);
    expect(unpacked('out/main/chunks/spreadsheetCheck-abc123.js')).toBe(true);
    expect(unpacked('node_modules/@napi-rs/keyring-darwin-arm64/keyring.darwin-arm64.node')).toBe(true);
    expect(unpacked('out/main/index.js')).toBe(false);
    expect(unpacked('out/renderer/index.html')).toBe(false);
  });

  it('keeps the fuses hook and draws the icon every platform names', async () => {
    expect(config.afterPack).toBe('desktop/build/afterPack.mjs');
    expect(new Set([config.mac.icon, config.win.icon, config.linux.icon])).toEqual(new Set(['desktop/build/icon.png']));
    // `npm run desktop:dist` draws it before packaging.
    const scripts = (JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
    expect(scripts['desktop:dist']).toMatch(/^node desktop\/build\/make-icon\.mjs && /);

    const { makeIcon } = (await import(pathToFileURL(path.join(root, 'desktop/build/make-icon.mjs')).href)) as { makeIcon(output: string, size?: number): string };
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sandesh-icon-'));
    try {
      const png = fs.readFileSync(makeIcon(path.join(dir, 'icon.png'), 512));
      expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
      // IHDR: 512 x 512 (electron-builder needs at least 512 for .icns and .ico), 8-bit RGBA.
      expect(png.toString('ascii', 12, 16)).toBe('IHDR');
      expect([png.readUInt32BE(16), png.readUInt32BE(20), png[24], png[25]]).toEqual([512, 512, 8, 6]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
