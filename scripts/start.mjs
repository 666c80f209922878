// `npm start`: builds the web app if it is missing, then runs the server, which migrates the
// database, creates the first admin and serves the API and the web app.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
process.chdir(root);

const webIndex = path.resolve(process.env.WEB_DIST_DIR || 'dist/web', 'index.html');
if (!existsSync(webIndex)) {
  console.log('Building the web app (first start only; `npm run build` rebuilds it)...');
  const build = spawnSync(process.execPath, ['node_modules/vite/bin/vite.js', 'build', '--config', 'vite.web.config.mts', '--logLevel', 'warn'], {
    stdio: 'inherit',
    env: { ...process.env, WEB_OUT_DIR: path.dirname(webIndex) },
  });
  if (build.status !== 0) {
    console.error('The web app build failed; see above.');
    process.exit(build.status ?? 1);
  }
}

register({ tsconfig: path.join(root, 'tsconfig.json') });
await import('../server/src/main.ts');
