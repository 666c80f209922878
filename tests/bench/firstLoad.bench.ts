/**
 * The gzip size of what index.html loads, measured on a fresh production build of the
 * current sources (in a temporary folder, so dist/web is left as it is).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { firstLoadLine, measureFirstLoad } from '../../scripts/first-load-size.mjs';

async function run(): Promise<void> {
  const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sandesh-web-bench-'));
  try {
    const build = spawnSync(process.execPath, ['node_modules/vite/bin/vite.js', 'build', '--config', 'vite.web.config.mts', '--mode', 'production', '--logLevel', 'error'], {
      encoding: 'utf8',
      env: { ...process.env, NODE_ENV: 'production', WEB_OUT_DIR: outDir },
    });
    if (build.status !== 0) throw new Error(`the web build failed:\n${build.stderr}`);
    const measurement = measureFirstLoad(outDir);
    for (const file of measurement.files) {
      console.log(`  ${file.file.padEnd(44)} ${(file.bytes / 1000).toFixed(1).padStart(7)} kB  ${(file.gzipBytes / 1000).toFixed(1).padStart(6)} kB gzip`);
    }
    console.log(firstLoadLine(measurement));
  } finally {
    fs.rmSync(outDir, { recursive: true, force: true });
  }
}

export const firstLoadBench = { name: 'first-load', run };
