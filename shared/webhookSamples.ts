/**
 * Verifying `Sandesh-Signature: t=<unix seconds>,v1=<hex>`: HMAC-SHA256 of
 * "<t>.<raw body>" with the endpoint's secret, compared in constant time, the timestamp within
 * five minutes. Each sample reads the raw body: a re-serialised JSON body does not verify. The
 * docs show them; tests/api/integrator-verify-samples.test.ts runs them against our signatures.
 */
export const WEBHOOK_VERIFY_SAMPLES: readonly { label: string; code: string }[] = [
  {
    label: 'Node.js',
    code: `import { createHmac, timingSafeEqual } from 'node:crypto';

export function verifySandesh(rawBody, header, secret) {
  const parts = Object.fromEntries(header.split(',').map((part) => part.split('=')));
  const t = Number(parts.t);
  if (!Number.isInteger(t) || Math.abs(Date.now() / 1000 - t) > 300) return false;
  const expected = createHmac('sha256', secret).update(\`\${t}.\${rawBody}\`).digest('hex');
  const given = String(parts.v1 ?? '');
  return given.length === expected.length && timingSafeEqual(Buffer.from(given), Buffer.from(expected));
}`,
  },
  {
    label: 'Python',
    code: `import hashlib, hmac, time

def verify_sandesh(raw_body: bytes, header: str, secret: str) -> bool:
    parts = dict(part.split("=", 1) for part in header.split(","))
    try:
        t = int(parts.get("t", ""))
    except ValueError:
        return False
    if abs(time.time() - t) > 300:
        return False
    expected = hmac.new(secret.encode(), f"{t}.".encode() + raw_body, hashlib.sha256).hexdigest()
    return hmac.compare_digest(expected, parts.get("v1", ""))`,
  },
  {
    label: 'PHP',
    code: `<?php
function verify_sandesh(string $rawBody, string $header, string $secret): bool {
    $parts = [];
    foreach (explode(',', $header) as $part) {
        [$name, $value] = array_pad(explode('=', $part, 2), 2, '');
        $parts[$name] = $value;
    }
    $t = (int)($parts['t'] ?? 0);
    if ($t === 0 || abs(time() - $t) > 300) return false;
    $expected = hash_hmac('sha256', $t . '.' . $rawBody, $secret);
    return hash_equals($expected, $parts['v1'] ?? '');
}
// $rawBody = file_get_contents('php://input');
// $header = $_SERVER['HTTP_SANDESH_SIGNATURE'] ?? '';`,
  },
];
