// Starts a server for the end-to-end suite on a fresh SQLite database in test-results/.
// Usage: node scripts/e2e-server.mjs <port> [idleTimeoutSeconds] [gst]
// `gst`: a supplier GSTIN (Telangana) is configured, so top-ups get GST tax invoices.
import { rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const [port = '3101', idle = '600', flavour = ''] = process.argv.slice(2);
const dataDir = path.join(root, 'test-results', `e2e-data-${port}`);
rmSync(dataDir, { recursive: true, force: true });

Object.assign(process.env, {
  NODE_ENV: 'development',
  HOST: '127.0.0.1',
  PORT: port,
  DATA_DIR: dataDir,
  SESSION_IDLE_TIMEOUT_SECONDS: idle,
  ADMIN_USERNAME: process.env.E2E_ADMIN_USERNAME ?? 'e2e_admin',
  ADMIN_PASSWORD: process.env.E2E_ADMIN_PASSWORD ?? 'e2e-admin-pass',
  LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
  // Meta's review (the simulator's) answers after this long: long enough for a journey to see a
  // template "In review at Meta" on a busy machine, short enough not to hold up the sends after it.
  SIMULATOR_REVIEW_MS: process.env.SIMULATOR_REVIEW_MS ?? '3000',
  // 360dialog is the embedded simulator's layout: saving channel settings registers the webhook
  // there, never at the real 360dialog.
  CHANNEL_API_BASE: process.env.CHANNEL_API_BASE ?? `http://127.0.0.1:${port}/simulator`,
});
if (flavour === 'gst') {
  Object.assign(process.env, {
    GST_SUPPLIER_GSTIN: '36AAPFU0939F1ZW',
    GST_SUPPLIER_NAME: 'Sandesh Technologies Pvt Ltd',
    GST_SUPPLIER_ADDRESS: 'Madhapur, Hyderabad, Telangana 500081',
  });
}
await import('./start.mjs');
