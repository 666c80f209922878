import { describe, expect, it } from 'vitest';
import { deviceLabel, newDeviceId, validDeviceId } from './devices';

describe('deviceLabel', () => {
  it.each([
    ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0', 'Edge on Windows'],
    ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 OPR/115.0.0.0', 'Opera on Windows'],
    ['Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15', 'Safari on macOS'],
    ['Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1', 'Safari on iOS'],
    ['Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/131.0.6778.73 Mobile/15E148 Safari/604.1', 'Chrome on iOS'],
    ['Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/26.0 Chrome/122.0.0.0 Mobile Safari/537.36', 'Samsung Internet on Android'],
    ['Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36', 'Chrome on Android'],
    ['Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36', 'Chrome on ChromeOS'],
    ['Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0', 'Firefox on Linux'],
    ['curl/8.5.0', 'A web browser'],
    ['', 'A web browser'],
  ])('names %s as %s', (userAgent, label) => {
    expect(deviceLabel(userAgent, false)).toBe(label);
  });

  it('names the desktop app by itself, with its system when the User-Agent says', () => {
    expect(deviceLabel('Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Sandesh/0.1.0 Chrome/130.0.0.0 Electron/33.2.1 Safari/537.36', true)).toBe('Sandesh desktop on Windows');
    expect(deviceLabel('', true)).toBe('Sandesh desktop');
  });
});

describe('device ids', () => {
  it('accepts the ids we issue and the desktop app makes, nothing else', () => {
    const issued = newDeviceId();
    expect(validDeviceId(issued)).toBe(issued);
    expect(validDeviceId('2f1c9e0a-7d4b-4c1e-9a55-0b8f3d6e1a22')).toBe('2f1c9e0a-7d4b-4c1e-9a55-0b8f3d6e1a22');
    for (const bad of [undefined, null, '', 'short', 'has spaces in it here', 'x'.repeat(129), 'semi;colon-0123456789', 'ünïcödé-0123456789']) expect(validDeviceId(bad)).toBeNull();
  });
});
