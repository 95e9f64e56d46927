import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { CookieOptions } from 'express';
import type { PrimarySecret } from './primary-secret.js';

/** How long a device stays known after its last successful sign-in (days). */
export const DEVICE_COOKIE_LIFETIME_DAYS = 180;
/** Where the browser sends the cookie back: the sign-in routes only. */
const DEVICE_COOKIE_PATH = '/api/v1/auth';
const COOKIE_PREFIX = 'wildo_device_';

/** A cookie to set on a successful sign-in. */
export interface DeviceCookie {
  name: string;
  value: string;
  options: CookieOptions;
}

/**
 * OWASP's device cookies: a device (browser) that signed in to an account successfully gets a cookie naming that
 * account, signed with a key derived from the primary secret. The sign-in throttle gives a device presenting a genuine
 * cookie its own failure budget, so guessing against the account from elsewhere cannot lock its owner out of a device
 * they used before. One cookie per account (its name carries a keyed tag of the account, never the address), sent
 * only to the sign-in routes, HTTP-only, same-site strict, and `Secure` when the backend is served over HTTPS.
 *
 * @example
 * const device = devices.read(req.get('cookie'), account); // the device id, or undefined
 * const cookie = devices.issue(account, device);
 * res.cookie(cookie.name, cookie.value, cookie.options);
 */
export class DeviceCookies {
  private readonly key: Buffer;

  constructor(
    secret: PrimarySecret,
    private readonly secure: boolean,
  ) {
    this.key = secret.derive('device-cookies');
  }

  /** The device id a genuine cookie for `account` carries, or undefined (none, forged, or another account's). */
  read(cookieHeader: string | undefined, account: string): string | undefined {
    const name = this.nameFor(account);
    const value = cookieHeader
      ?.split(';')
      .map((pair) => pair.trim())
      .find((pair) => pair.startsWith(`${name}=`))
      ?.slice(name.length + 1);
    const [device, signature] = (value ?? '').split('.');
    if (!device || !signature || !/^[\w-]{22}$/.test(device)) return undefined;
    const expected = Buffer.from(this.sign(account, device));
    const given = Buffer.from(signature);
    return given.length === expected.length && timingSafeEqual(given, expected) ? device : undefined;
  }

  /** The cookie that marks this device as known to `account` (the same device id when it already had one). */
  issue(account: string, device = randomBytes(16).toString('base64url')): DeviceCookie {
    return {
      name: this.nameFor(account),
      value: `${device}.${this.sign(account, device)}`,
      options: {
        httpOnly: true,
        sameSite: 'strict',
        secure: this.secure,
        path: DEVICE_COOKIE_PATH,
        maxAge: DEVICE_COOKIE_LIFETIME_DAYS * 86_400_000,
      },
    };
  }

  private nameFor(account: string): string {
    return `${COOKIE_PREFIX}${this.mac(`account:${account}`).slice(0, 16)}`;
  }

  private sign(account: string, device: string): string {
    return this.mac(`device:${account}:${device}`);
  }

  private mac(material: string): string {
    return createHmac('sha256', this.key).update(material).digest('base64url');
  }
}
