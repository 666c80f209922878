// Loaded with `--import` by scripts/test-node24.mjs in every process of its run (vitest's workers,
// the servers the API tests start, worker threads): sends `better-sqlite3` to a copy built for the
// Node.js under test, so the shared node_modules keeps the build for the Node.js that installed it.
// module.registerHooks covers require() as well as import (knex requires the driver).
import { registerHooks } from 'node:module';
import { pathToFileURL } from 'node:url';

const copy = process.env.SANDESH_BETTER_SQLITE3_DIR;
if (!copy) throw new Error('SANDESH_BETTER_SQLITE3_DIR: the folder of a better-sqlite3 built for this Node.js');
const copyUrl = `${pathToFileURL(copy).href}/`;
const PACKAGE = '/node_modules/better-sqlite3/';

registerHooks({
  // Whatever asked for it (a bare specifier from knex, a path Vite resolved for the server's own
  // imports): a file of node_modules/better-sqlite3 becomes the same file of the copy.
  resolve(specifier, context, nextResolve) {
    const resolved = nextResolve(specifier, context);
    const at = resolved.url.indexOf(PACKAGE);
    if (at === -1 || resolved.url.startsWith(copyUrl)) return resolved;
    return { ...resolved, url: copyUrl + resolved.url.slice(at + PACKAGE.length) };
  },
});
