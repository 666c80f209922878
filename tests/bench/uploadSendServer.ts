/**
 * The server of the upload-and-send bench, in a process of its own so that its peak memory is
 * measured alone and the upload client does not share its event loop. It makes a desktop user
 * with enough balance and an approved template of seven variables, prints one JSON line with
 * what the bench needs, and stops when its stdin closes.
 */
import { TestClient } from '../../server/test/client';
import { buildTemplate, buildUser } from '../../server/test/factories';
import { startTestServer } from '../../server/test/server';

/** What the bench reads from this process's first line of output. */
export interface UploadSendServerInfo {
  url: string;
  token: string;
  templateName: string;
  phoneNumberId: string;
  dataDir: string;
}

const server = await startTestServer({ DISPATCH_ENABLED: 'false', LOG_LEVEL: 'silent' });
const user = await buildUser(server, { creditRupees: 10_000_000 });
const template = await buildTemplate(server, user, { name: 'bench_upload_send', body: 'Hi {{1}} of {{2}}: order {{3}}, {{4}} due {{5}} ({{6}}, ref {{7}})' });
const sender = await server.services.senderNumbers.ensureSandbox(user.id);
const login = await new TestClient(server.url).post('/api/auth/login', { username: user.username, password: user.plainPassword }, { 'X-Client': 'desktop' });
if (typeof login.body.token !== 'string') throw new Error(`desktop sign-in failed: ${JSON.stringify(login.body)}`);

const info: UploadSendServerInfo = { url: server.url, token: login.body.token, templateName: template.name, phoneNumberId: sender.phoneNumberId, dataDir: server.dataDir };
process.stdout.write(`${JSON.stringify(info)}\n`);

process.stdin.resume();
process.stdin.on('end', () => {
  void server.close().then(() => process.exit(0));
});
