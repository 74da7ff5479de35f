import { timingSafeEqual } from 'node:crypto';
import { contentSecurityPolicy } from '../../shared/csp';

/** Browser mode's loopback checks as pure functions: token, Origin and Host (DNS rebinding). */
export function tokensMatch(expected: string, given: string | null | undefined): boolean {
  if (!given) return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
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
