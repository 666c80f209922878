/**
 * The load generator of the public API bench, run as its own process so that the client does not
 * share the server's event loop: autocannon, one new recipient per request. Prints `start` on a
 * line of its own as the load begins, then autocannon's result and its own CPU time as JSON.
 */
import autocannon from 'autocannon';

const { url, key, username, templatename, connections, seconds, firstRecipient } = JSON.parse(process.argv[2] ?? '{}') as Record<string, string>;
/** Each run's recipients start where the caller says, so a warm-up's numbers are not sent again (Duplicate Blocked). */
let sequence = Number(firstRecipient ?? 0);
process.stdout.write('start\n');
const cpuBefore = process.cpuUsage();
const result = await autocannon({
  url: `${url}/api/send`,
  connections: Number(connections),
  duration: Number(seconds),
  requests: [
    {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
      setupRequest: (request) => ({
        ...request,
        body: JSON.stringify({ username, templatename, recipient_number: String(919_000_000_000 + sequence++), var1: 'Asha', var2: 'A1' }),
      }),
    },
  ],
});
const cpu = process.cpuUsage(cpuBefore);
process.stdout.write(
  JSON.stringify({
    average: result.requests.average,
    ok: result['2xx'],
    non2xx: result.non2xx,
    errors: result.errors,
    p50: result.latency.p50,
    p99: result.latency.p99,
    cpuMs: (cpu.user + cpu.system) / 1000,
  }),
);
