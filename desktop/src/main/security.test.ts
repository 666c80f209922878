import { describe, expect, it } from 'vitest';
import {
  buildContentSecurityPolicy,
  decideNavigation,
  decideWindowOpen,
  isAllowedAppOrigin,
  isAllowedExternalUrl,
  isAppUrl,
  isPermissionAllowed,
  secureWebPreferences,
} from './security';

describe('isAppUrl', () => {
  it('accepts pages of app://sandesh', () => {
    expect(isAppUrl('app://sandesh/')).toBe(true);
    expect(isAppUrl('app://sandesh/user/dashboard?tab=1#x')).toBe(true);
  });

  it('refuses other hosts, schemes and look-alikes', () => {
    for (const url of [
      'app://evil/',
      'app://sandesh.evil.com/',
      'https://sandesh/',
      'file:///work/main/out/renderer/index.html',
      'app:sandesh',
      'not a url',
      '',
    ]) {
      expect(isAppUrl(url), url).toBe(false);
    }
    expect(isAppUrl(undefined)).toBe(false);
    expect(isAppUrl(42)).toBe(false);
  });
});

describe('isAllowedExternalUrl', () => {
  it('accepts plain http and https links', () => {
    expect(isAllowedExternalUrl('https://www.whatsapp.com/legal')).toBe(true);
    expect(isAllowedExternalUrl('http://localhost:3000/docs')).toBe(true);
  });

  it('refuses schemes that could launch local programs or run script', () => {
    for (const url of [
      'file:///etc/passwd',
      'javascript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'smb://server/share',
      'ms-msdt:/id PCWDiagnostic',
      'app://sandesh/',
      'mailto:a@b.c',
      'vbscript:msgbox',
    ]) {
      expect(isAllowedExternalUrl(url), url).toBe(false);
    }
  });

  it('refuses embedded credentials, junk and over-long links', () => {
    expect(isAllowedExternalUrl('https://user:pass@example.com/')).toBe(false);
    expect(isAllowedExternalUrl('https://user@example.com/')).toBe(false);
    expect(isAllowedExternalUrl('https://')).toBe(false);
    expect(isAllowedExternalUrl('example.com')).toBe(false);
    expect(isAllowedExternalUrl(`https://example.com/${'a'.repeat(3000)}`)).toBe(false);
    expect(isAllowedExternalUrl(null)).toBe(false);
    expect(isAllowedExternalUrl({ href: 'https://example.com' })).toBe(false);
  });
});

describe('navigation decisions', () => {
  it('keeps app pages in the window', () => {
    expect(decideNavigation('app://sandesh/login')).toBe('allow');
  });

  it('sends web links to the system browser and refuses the rest', () => {
    expect(decideNavigation('https://example.com/')).toBe('open-external');
    expect(decideNavigation('file:///etc/passwd')).toBe('deny');
    expect(decideNavigation('app://other/')).toBe('deny');
  });

  it('allows the dev server only when it is passed in', () => {
    expect(decideNavigation('http://localhost:5173/login')).toBe('open-external');
    expect(decideNavigation('http://localhost:5173/login', ['http://localhost:5173'])).toBe('allow');
    expect(isAllowedAppOrigin('http://localhost:5174/', ['http://localhost:5173'])).toBe(false);
  });

  it('never opens a new Electron window, even for app URLs', () => {
    expect(decideWindowOpen('https://example.com/')).toBe('open-external');
    expect(decideWindowOpen('app://sandesh/')).toBe('deny');
    expect(decideWindowOpen('javascript:alert(1)')).toBe('deny');
  });
});

describe('buildContentSecurityPolicy', () => {
  const csp = buildContentSecurityPolicy('https://sandesh.example.com');
  const directive = (name: string): string | undefined =>
    csp.split('; ').find((part) => part.startsWith(`${name} `));

  it('allows network access only to the app, the configured server and the payment provider', () => {
    expect(directive('connect-src')).toBe("connect-src 'self' https://sandesh.example.com https://*.razorpay.com");
  });

  it('allows scripts only from the app, the server (sandbox checkout) and Razorpay checkout, without inline script or eval', () => {
    expect(directive('script-src')).toBe("script-src 'self' https://sandesh.example.com https://checkout.razorpay.com");
    expect(directive('frame-src')).toBe('frame-src https://*.razorpay.com');
    expect(csp).not.toContain('unsafe-eval');
    expect(directive('default-src')).toBe("default-src 'self'");
  });

  it('forbids plugins, frames other than the payment window, base rewriting and foreign form posts', () => {
    expect(directive('object-src')).toBe("object-src 'none'");
    expect(directive('frame-src')).not.toContain("'self'");
    expect(directive('base-uri')).toBe("base-uri 'none'");
    expect(directive('form-action')).toBe("form-action 'none'");
  });

  it('adds extra connect origins when given', () => {
    expect(buildContentSecurityPolicy('http://127.0.0.1:3000', ['ws://localhost:5173'])).toContain(
      "connect-src 'self' http://127.0.0.1:3000 https://*.razorpay.com ws://localhost:5173",
    );
  });
});

describe('secureWebPreferences', () => {
  it('isolates and sandboxes the renderer with no Node.js', () => {
    const prefs = secureWebPreferences('/app/out/preload/index.cjs');
    expect(prefs).toMatchObject({
      preload: '/app/out/preload/index.cjs',
      contextIsolation: true,
      nodeIntegration: false,
      sandbox: true,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
    });
  });
});

describe('isPermissionAllowed', () => {
  it('grants clipboard writing to app pages only', () => {
    expect(isPermissionAllowed('clipboard-sanitized-write', 'app://sandesh/user/api-keys')).toBe(true);
    expect(isPermissionAllowed('clipboard-sanitized-write', 'https://evil.example/')).toBe(false);
  });

  it('refuses everything else', () => {
    for (const permission of ['media', 'geolocation', 'notifications', 'openExternal', 'clipboard-read']) {
      expect(isPermissionAllowed(permission, 'app://sandesh/'), permission).toBe(false);
    }
  });
});
