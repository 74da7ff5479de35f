/**
 * The sandbox's Host check (DNS rebinding). A page on a name the attacker controls that resolves to 127.0.0.1 sends
 * its own name in `Host`; so a request is served only when `Host` names the machine by address, as `localhost`, or
 * by the name the sandbox was told to listen on. Any port: rebinding is stopped by the name, and a port mapping
 * (a container, an SSH tunnel) must keep working. Pure, so it is unit-tested.
 */
import { isIP } from 'node:net';

/** `name[:port]` or `[v6][:port]`; undefined when the header is not a well-formed host. */
export function parseHostHeader(value: string | undefined): { hostname: string; port?: number } | undefined {
  if (!value) return undefined;
  const match = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+)(?::(\d{1,5}))?$/.exec(value);
  if (!match) return undefined;
  const [, name, port] = match;
  const hostname = name!.toLowerCase();
  if (hostname.startsWith('[') && isIP(hostname.slice(1, -1)) !== 6) return undefined;
  if (port === undefined) return { hostname };
  const number = Number(port);
  return number > 0 && number <= 65535 ? { hostname, port: number } : undefined;
}

function bare(hostname: string): string {
  return hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
}

/** Whether to serve a request with this `Host`; `listenHost` is the address or name given to `--host`. */
export function isAllowedSandboxHost(value: string | undefined, listenHost: string): boolean {
  const host = parseHostHeader(value);
  if (!host) return false;
  const name = bare(host.hostname);
  if (isIP(name) !== 0 || name === 'localhost') return true;
  return name === bare(listenHost.toLowerCase());
}
