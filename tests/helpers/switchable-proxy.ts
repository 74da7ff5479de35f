/**
 * A TCP proxy on loopback in front of a sandbox; `down()` refuses every connection (the tenant is unreachable), after
 * reading its request line so a test can see what the app asked for while it was down (`refused`).
 */
import { createConnection, createServer, type Socket } from 'node:net';
import { afterAll } from 'vitest';

const proxies: { close(): void }[] = [];
afterAll(() => {
  for (const proxy of proxies.splice(0)) proxy.close();
});

export interface SwitchableProxy {
  url: string;
  down(): void;
  up(): void;
  /** The request lines (`GET /path?query HTTP/1.1`) of connections refused while down, oldest first. */
  refused: string[];
}

export async function switchableProxy(target: { port: number }): Promise<SwitchableProxy> {
  let up = true;
  const open = new Set<Socket>();
  const refused: string[] = [];
  const proxy = createServer((socket) => {
    if (!up) {
      // A client sends its request as soon as it connects: note its first line, then end the connection unanswered.
      socket.once('data', (chunk) => {
        refused.push(chunk.toString('latin1').split('\r\n', 1)[0]!);
        socket.destroy();
      });
      socket.on('error', () => socket.destroy());
      return;
    }
    const upstream = createConnection(target.port, '127.0.0.1');
    open.add(socket).add(upstream);
    socket.pipe(upstream).pipe(socket);
    const end = () => {
      socket.destroy();
      upstream.destroy();
      open.delete(socket);
      open.delete(upstream);
    };
    socket.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  proxies.push({ close: () => proxy.close() });
  const { port } = proxy.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    down() {
      up = false;
      for (const socket of open) socket.destroy();
    },
    up: () => void (up = true),
    refused,
  };
}
