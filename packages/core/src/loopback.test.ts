import { describe, expect, it } from 'vitest';
import { isLoopbackHost } from './http.js';

describe('isLoopbackHost', () => {
  it.each(['localhost', 'LOCALHOST', '127.0.0.1', '127.1.2.3', '::1', '[::1]', '0:0:0:0:0:0:0:1'])('%s is loopback', (host) => {
    expect(isLoopbackHost(host)).toBe(true);
  });

  it.each(['localhost.evil.com', 'evil-localhost', '128.0.0.1', '10.0.0.1', '::2', '::', '0.0.0.0', 'example.com', '127.0.0.1.nip.io'])(
    '%s is not loopback',
    (host) => {
      expect(isLoopbackHost(host)).toBe(false);
    },
  );

  it('reads hostnames the way URL parses them', () => {
    expect(isLoopbackHost(new URL('http://[::1]:8080/v1').hostname)).toBe(true);
    expect(isLoopbackHost(new URL('http://127.0.0.1.evil.com/').hostname)).toBe(false);
  });
});
