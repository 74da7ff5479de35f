/**
 * Remote images of ticket descriptions, fetched by the engine only when asked: against a real local HTTP server
 * (what it serves decides the answer) and the sandbox (only the ticket's own image sources are fetched). Which
 * addresses may be asked is decided by pure functions and a stub resolver; the only connections made are to
 * 127.0.0.1, to servers that play the tenant (its own origin is trusted whatever its address).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../src/main/engine';
import { checkImageUrl, refusedAddress, type Resolver } from '../../src/main/engine/tickets/image-address';
import { fetchRemoteImage, imageSources, sniffImageType } from '../../src/main/engine/tickets/images';
import { richText } from '../../src/main/engine/tickets/markup';
import type { Sandbox } from '../../src/server/app';
import { connect } from '../helpers/engine';
import { sandbox } from '../helpers/sandbox';
import { answer, proxy } from '../train/proxy';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
const GIF = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');

let http: Server;
let base: string;
const hits: string[] = [];
/** Another local service (another port on this computer): a ticket's image must never reach it. */
let other: Server;
let otherBase: string;
const otherHits: string[] = [];
/** The local image server plays the tenant here: its origin is trusted (as the engine trusts the profile's). */
const asTenant = () => ({ trustedOrigins: [base] });

beforeAll(async () => {
  http = createServer((req, res) => {
    const path = req.url ?? '/';
    hits.push(path);
    switch (path) {
      case '/a.png':
        res.writeHead(200, { 'Content-Type': 'image/png' }).end(PNG);
        return;
      case '/lying.jpg': // a GIF called a JPEG: the bytes decide
        res.writeHead(200, { 'Content-Type': 'image/jpeg' }).end(GIF);
        return;
      case '/page.png':
        res.writeHead(200, { 'Content-Type': 'image/png' }).end('<html><script>alert(1)</script></html>');
        return;
      case '/drawing.svg':
        res
          .writeHead(200, { 'Content-Type': 'image/svg+xml' })
          .end('<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
        return;
      case '/big-declared.png':
        res.writeHead(200, { 'Content-Type': 'image/png', 'Content-Length': String(10 * 1024 * 1024) });
        res.write(PNG);
        setTimeout(() => res.destroy(), 50);
        return;
      case '/big-streamed.png': {
        // No length announced: the engine stops reading past its limit.
        res.writeHead(200, { 'Content-Type': 'image/png' });
        res.write(PNG);
        const chunk = Buffer.alloc(64 * 1024, 1);
        let sent = 0;
        const pump = () => {
          while (sent < 40 && res.write(chunk)) sent++;
          if (sent < 40) res.once('drain', pump);
          else res.end();
        };
        pump();
        return;
      }
      case '/slow.png':
        setTimeout(() => res.writeHead(200, { 'Content-Type': 'image/png' }).end(PNG), 2000);
        return;
      case '/moved.png':
        res.writeHead(302, { Location: '/a.png' }).end();
        return;
      case '/to-private.png':
        res.writeHead(302, { Location: 'http://intranet.example/a.png' }).end();
        return;
      case '/to-metadata.png':
        res.writeHead(301, { Location: 'http://169.254.169.254/latest/meta-data/' }).end();
        return;
      case '/to-other-port.png':
        res.writeHead(307, { Location: `${otherBase}/a.png` }).end();
        return;
      case '/to-file.png':
        res.writeHead(302, { Location: 'file:///etc/passwd' }).end();
        return;
      case '/loop.png':
        res.writeHead(302, { Location: '/loop.png' }).end();
        return;
      default:
        res.writeHead(404, 'Not Found').end();
    }
  });
  await new Promise<void>((done) => http.listen(0, '127.0.0.1', done));
  base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  other = createServer((req, res) => {
    otherHits.push(req.url ?? '/');
    res.writeHead(200, { 'Content-Type': 'image/png' }).end(PNG);
  });
  await new Promise<void>((done) => other.listen(0, '127.0.0.1', done));
  otherBase = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((done) => http.close(done));
  await new Promise((done) => other.close(done));
});

describe('fetching an image', () => {
  it('returns a data: URL typed by the bytes, following redirects', async () => {
    const png = await fetchRemoteImage(`${base}/a.png`, asTenant());
    expect(png).toEqual({
      dataUrl: `data:image/png;base64,${PNG.toString('base64')}`,
      type: 'image/png',
      bytes: PNG.length,
    });
    expect((await fetchRemoteImage(`${base}/lying.jpg`, asTenant())).type).toBe('image/gif');
    expect((await fetchRemoteImage(`${base}/moved.png`, asTenant())).type).toBe('image/png');
  });

  it('refuses what is not a raster image, too large, missing or too slow — saying which', async () => {
    await expect(fetchRemoteImage(`${base}/page.png`, asTenant())).rejects.toThrow(/is not an image/);
    await expect(fetchRemoteImage(`${base}/drawing.svg`, asTenant())).rejects.toThrow(/SVG drawing/);
    await expect(fetchRemoteImage(`${base}/big-declared.png`, asTenant())).rejects.toThrow(
      'The image is larger than 5 MB.',
    );
    await expect(
      fetchRemoteImage(`${base}/big-streamed.png`, { ...asTenant(), maxBytes: 1024 * 1024 }),
    ).rejects.toThrow('The image is larger than 1 MB.');
    await expect(fetchRemoteImage(`${base}/gone.png`, asTenant())).rejects.toMatchObject({
      code: 'api',
      message: expect.stringContaining('answered 404 Not Found') as string,
    });
    await expect(fetchRemoteImage(`${base}/slow.png`, { ...asTenant(), timeoutMs: 200 })).rejects.toThrow(
      /took too long/,
    );
    await expect(
      fetchRemoteImage('http://127.0.0.1:9/none.png', { trustedOrigins: ['http://127.0.0.1:9'] }),
    ).rejects.toMatchObject({ code: 'unreachable' });
  });

  it('knows the raster formats by their signatures', () => {
    expect(sniffImageType(PNG)).toBe('image/png');
    expect(sniffImageType(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0]))).toBe('image/jpeg');
    expect(sniffImageType(Buffer.from('RIFF\x10\x00\x00\x00WEBPVP8 ', 'latin1'))).toBe('image/webp');
    expect(sniffImageType(Buffer.from('\x00\x00\x00\x1cftypavif\x00\x00', 'latin1'))).toBe('image/avif');
    expect(sniffImageType(Buffer.from('<svg></svg>'))).toBeNull();
    expect(sniffImageType(Buffer.alloc(0))).toBeNull();
  });

  it('lists the image sources of a sanitised description once each', () => {
    const doc = richText(
      `<p><img src="${base}/a.png"> <img src="javascript:alert(1)"><img src="${base}/a.png"></p>\n\n![b](${base}/b.png)`,
    ).doc;
    expect(imageSources(doc)).toEqual([`${base}/a.png`, `${base}/b.png`]);
    expect(imageSources(richText(`Look: ![chart](${base}/b.png)`).doc)).toEqual([`${base}/b.png`]);
  });
});

describe('which addresses an image may come from', () => {
  it('only public unicast addresses: loopback, private, link-local, CGNAT, multicast and the like are refused', () => {
    const refused: [string, RegExp][] = [
      ['127.0.0.1', /loopback/],
      ['127.45.6.7', /loopback/],
      ['::1', /loopback/],
      ['10.0.0.5', /private/],
      ['172.16.0.1', /private/],
      ['172.31.255.254', /private/],
      ['192.168.1.20', /private/],
      ['169.254.169.254', /link-local/],
      ['fe80::1', /link-local/],
      ['fc00::1', /private/],
      ['fd12:3456::1', /private/],
      ['100.64.0.1', /carrier-grade NAT/],
      ['0.0.0.0', /unspecified/],
      ['::', /unspecified/],
      ['224.0.0.251', /multicast/],
      ['ff02::1', /multicast/],
      ['255.255.255.255', /broadcast/],
      ['192.0.2.10', /special-purpose/],
      ['::ffff:127.0.0.1', /loopback/],
      ['::ffff:10.1.2.3', /private/],
      ['64:ff9b::a9fe:a9fe', /link-local/], // NAT64 of 169.254.169.254
      ['2002:7f00:1::', /special-purpose/], // 6to4 of 127.0.0.1
      ['not-an-ip', /not an IP address/],
    ];
    for (const [address, why] of refused) expect(refusedAddress(address), address).toMatch(why);
    for (const address of ['93.184.216.34', '8.8.8.8', '172.32.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8']) {
      expect(refusedAddress(address), address).toBeNull();
    }
  });

  const zone: Record<string, string[]> = {
    'cdn.example': ['93.184.216.34', '2606:2800:220:1::1'],
    'intranet.example': ['10.0.0.5'],
    'split.example': ['93.184.216.34', '127.0.0.1'],
    'metadata.example': ['fd00:ec2::254'],
    'tenant.example': ['127.0.0.1'],
  };
  const asked: string[] = [];
  const stub: Resolver = async (host) => {
    asked.push(host);
    const found = zone[host];
    if (!found) throw new Error(`ENOTFOUND ${host}`);
    return found;
  };
  const check = (url: string, trustedOrigins: string[] = []) =>
    checkImageUrl(new URL(url), { resolve: stub, trustedOrigins });

  it('resolves the host and refuses it when any of its addresses is not public', async () => {
    await expect(check('https://cdn.example/a.png')).resolves.toEqual({
      addresses: ['93.184.216.34', '2606:2800:220:1::1'],
    });
    await expect(check('http://intranet.example/a.png')).rejects.toMatchObject({
      code: 'validation',
      message:
        'The image is not fetched: intranet.example (10.0.0.5) is a private network address, and a ticket may only show images from the internet or from the tenant.',
    });
    await expect(check('http://split.example/a.png')).rejects.toThrow('split.example (127.0.0.1) is a loopback');
    await expect(check('http://metadata.example/a.png')).rejects.toThrow('is a private network address');
    await expect(check('http://nowhere.example/a.png')).rejects.toMatchObject({ code: 'unreachable' });
  });

  it('judges address literals in every spelling the URL parser accepts, without asking the resolver', async () => {
    asked.length = 0;
    for (const url of [
      'http://127.0.0.1/a.png',
      'http://127.1/a.png',
      'http://2130706433/a.png',
      'http://0x7f000001/a.png',
      'http://0177.0.0.1/a.png',
      'http://[::1]:8080/a.png',
      'http://[::ffff:7f00:1]/a.png',
      'http://169.254.169.254/latest/meta-data/',
      'http://[fe80::1]/a.png',
      'http://0.0.0.0:3000/a.png',
    ]) {
      await expect(check(url), url).rejects.toMatchObject({ code: 'validation' });
    }
    expect(asked).toEqual([]);
  });

  it("trusts the tenant's own origin (scheme, host and port) whatever its address, and nothing else there", async () => {
    await expect(check('http://tenant.example:8000/media/a.png', ['http://tenant.example:8000'])).resolves.toEqual({
      addresses: ['127.0.0.1'],
    });
    await expect(check('http://tenant.example:8001/a.png', ['http://tenant.example:8000'])).rejects.toThrow(/loopback/);
    await expect(check('https://tenant.example:8000/a.png', ['http://tenant.example:8000'])).rejects.toThrow(
      /loopback/,
    );
    await expect(check('http://127.0.0.1:8000/a.png', ['http://tenant.example:8000'])).rejects.toThrow(/loopback/);
  });

  it('refuses other schemes', async () => {
    await expect(check('file:///etc/passwd')).rejects.toThrow('file: addresses are not images');
    await expect(check('ftp://cdn.example/a.png')).rejects.toMatchObject({ code: 'validation' });
  });

  it('connects to the address it checked (the stub resolver, not the system DNS, found tenant.example)', async () => {
    const before = hits.length;
    const port = new URL(base).port;
    const image = await fetchRemoteImage(`http://tenant.example:${port}/a.png`, {
      resolve: stub,
      trustedOrigins: [`http://tenant.example:${port}`],
    });
    expect(image.type).toBe('image/png');
    expect(hits.slice(before)).toEqual(['/a.png']);
    // The same host, not trusted: refused before any connection.
    await expect(fetchRemoteImage(`http://tenant.example:${port}/a.png`, { resolve: stub })).rejects.toThrow(
      /loopback/,
    );
    expect(hits.slice(before)).toEqual(['/a.png']);
  });

  it('checks every redirect again: to a private name, the metadata address, another local port, file:, or in a loop', async () => {
    const tenant = { ...asTenant(), resolve: stub };
    const before = hits.length;
    await expect(fetchRemoteImage(`${base}/to-private.png`, tenant)).rejects.toThrow(
      'intranet.example (10.0.0.5) is a private network address',
    );
    await expect(fetchRemoteImage(`${base}/to-metadata.png`, tenant)).rejects.toThrow(
      '169.254.169.254 is a link-local address',
    );
    await expect(fetchRemoteImage(`${base}/to-other-port.png`, tenant)).rejects.toThrow(
      `${new URL(otherBase).host} is a loopback address (this computer)`,
    );
    await expect(fetchRemoteImage(`${base}/to-file.png`, tenant)).rejects.toThrow('file: addresses are not images');
    await expect(fetchRemoteImage(`${base}/loop.png`, tenant)).rejects.toThrow('redirects too many times');
    // Each redirect was asked of the tenant once (the loop six times); the other service never heard of it.
    expect(hits.slice(before)).toEqual([
      '/to-private.png',
      '/to-metadata.png',
      '/to-other-port.png',
      '/to-file.png',
      ...Array<string>(6).fill('/loop.png'),
    ]);
    expect(otherHits).toEqual([]);
  });
});

describe('tickets.image', () => {
  let server: Sandbox;
  let engine: Engine;
  let tenant: { url: string; close(): Promise<void> };
  let id: number;
  const media: string[] = [];
  beforeAll(async () => {
    server = await sandbox({ seed: 'demo' });
    // The tenant's origin: the sandbox behind a front that also serves the tenant's own media.
    tenant = await proxy(server.url, async (req, res, _payload, send) => {
      if (req.url?.startsWith('/media/')) {
        media.push(req.url);
        res.writeHead(200, { 'Content-Type': 'image/png' }).end(PNG);
        return;
      }
      answer(res, await send());
    });
    ({ engine } = await connect(server, { key: 'env-only', baseUrl: tenant.url, keep: true }));
    id = server.db
      .prepare(`SELECT id FROM support_tickets WHERE org = ? ORDER BY id LIMIT 1`)
      .pluck()
      .get(server.org) as number;
    server.db
      .prepare('UPDATE support_tickets SET description = ? WHERE id = ?')
      .run(
        `<p>See <img src="${tenant.url}/media/a.png" alt="shot"> and <img src="${base}/a.png" alt="elsewhere"></p>`,
        id,
      );
    await engine.invoke('tickets.sync', { wait: true });
  });
  afterAll(async () => {
    await engine?.close();
    await tenant?.close();
  });

  it("fetches an image the ticket's description shows from the tenant, and no other address", async () => {
    const before = hits.length;
    const detail = await engine.invoke('tickets.get', { id });
    expect(detail.ticket.remoteImages).toBe(2);
    // Opening the ticket asked nothing of the images' hosts.
    expect(media).toEqual([]);
    expect(hits.length).toBe(before);
    const image = await engine.invoke('tickets.image', { id, src: `${tenant.url}/media/a.png` });
    expect(image.type).toBe('image/png');
    expect(media).toEqual(['/media/a.png']);
    // Shown by the description, but on another service of this computer: refused, never asked.
    await expect(engine.invoke('tickets.image', { id, src: `${base}/a.png` })).rejects.toMatchObject({
      code: 'validation',
      message: expect.stringContaining('is a loopback address (this computer)') as string,
    });
    // Not in the description: not fetched, whatever the address.
    await expect(engine.invoke('tickets.image', { id, src: `${base}/lying.jpg` })).rejects.toMatchObject({
      code: 'not_found',
    });
    await expect(engine.invoke('tickets.image', { id, src: `${tenant.url}/api/` })).rejects.toMatchObject({
      code: 'not_found',
    });
    await expect(engine.invoke('tickets.image', { id, src: 'file:///etc/passwd' })).rejects.toMatchObject({
      code: 'validation',
    });
    expect(hits.length).toBe(before);
    expect(media).toEqual(['/media/a.png']);
  });
});
