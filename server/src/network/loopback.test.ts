import { describe, expect, it } from 'vitest';
import { isLoopback, isLoopbackHost } from './loopback';

describe('isLoopback', () => {
  it('counts 127.0.0.0/8, ::1 and loopback written as IPv4-mapped IPv6 in any spelling', () => {
    for (const address of ['127.0.0.1', '127.8.9.10', '::1', '0:0:0:0:0:0:0:1', '::ffff:127.0.0.1', '::FFFF:127.0.0.1', '::ffff:7f00:1']) {
      expect(isLoopback(address), address).toBe(true);
    }
  });

  it('does not count other computers, nor IPv6 forms that only carry 127.x through a tunnel or translator', () => {
    for (const address of ['10.0.0.1', '::ffff:10.0.0.1', '::127.0.0.1', '::ffff:0:7f00:1', '2002:7f00:1::', '64:ff9b::7f00:1', '128.0.0.1', 'localhost', '', undefined, null]) {
      expect(isLoopback(address), String(address)).toBe(false);
    }
  });

  it('treats localhost and loopback addresses as a loopback bind', () => {
    expect(isLoopbackHost('localhost')).toBe(true);
    expect(isLoopbackHost('::1')).toBe(true);
    expect(isLoopbackHost('0.0.0.0')).toBe(false);
  });
});
