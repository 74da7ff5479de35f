import { timingSafeEqual } from 'node:crypto';
import { contentSecurityPolicy } from '../../shared/csp';

/**
 * Browser mode's loopback checks as pure functions: the session (token, then cookie), Origin and Host (DNS
 * rebinding).
 *
 * The printed address carries a per-run token. The page's first request exchanges it for an HttpOnly,
 * SameSite=Strict session cookie (the page then drops the token from its address with history.replaceState), and
 * from then on the bridge and the staging endpoint want that cookie: the token is not kept in the address bar, the
 * history or any URL the page requests.
 */
export function tokensMatch(expected: string, given: string | null | undefined): boolean {
  if (!given) return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Per port: two hosts on one machine (cookies ignore ports) must not overwrite each other's session. */
export function sessionCookieName(port: number): string {
  return `mentor_admin_session_${port}`;
}

/** `Set-Cookie` for the session: never readable by scripts, never sent by another site's page or navigation. */
export function sessionCookie(port: number, value: string): string {
  return `${sessionCookieName(port)}=${value}; HttpOnly; SameSite=Strict; Path=/`;
}

/** The value of cookie `name` in a `Cookie` header, if there. */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === name) return part.slice(at + 1).trim();
  }
  return undefined;
}

/** Whether a request carries this run's session cookie. */
export function hasSession(cookieHeader: string | undefined, port: number, session: string): boolean {
  return tokensMatch(session, cookieValue(cookieHeader, sessionCookieName(port)));
}

export function allowedHosts(port: number): Set<string> {
  return new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
}

export function isAllowedHost(host: string | undefined, port: number): boolean {
  return !!host && allowedHosts(port).has(host.toLowerCase());
}

export function isAllowedOrigin(origin: string | undefined, port: number): boolean {
  if (!origin) return false;
  try {
    const url = new URL(origin);
    return (
      url.protocol === 'http:' && url.pathname === '/' && allowedHosts(port).has(url.host) && origin === url.origin
    );
  } catch {
    return false;
  }
}

/** The page's CSP in browser mode: the Electron window's policy (src/shared/csp.ts) plus the bridge WebSocket. */
export function browserModeCsp(port: number): string {
  return contentSecurityPolicy({ connect: [`ws://127.0.0.1:${port}`, `ws://localhost:${port}`] });
}
