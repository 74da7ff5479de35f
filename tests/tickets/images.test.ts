/**
 * Remote images of ticket descriptions, fetched by the engine only when asked: against a real local HTTP server
 * (what it serves decides the answer) and the sandbox (only the ticket's own image sources are fetched).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchRemoteImage, imageSources, sniffImageType } from '../../src/main/engine/tickets/images';
import { richText } from '../../src/main/engine/tickets/markup';
import { rig } from './helpers';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
const GIF = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');

let http: Server;
let base: string;
const hits: string[] = [];

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
      default:
        res.writeHead(404, 'Not Found').end();
    }
  });
  await new Promise<void>((done) => http.listen(0, '127.0.0.1', done));
  base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
});

afterAll(() => new Promise((done) => http.close(done)));

describe('fetching an image', () => {
  it('returns a data: URL typed by the bytes, following redirects', async () => {
    const png = await fetchRemoteImage(`${base}/a.png`);
    expect(png).toEqual({
      dataUrl: `data:image/png;base64,${PNG.toString('base64')}`,
      type: 'image/png',
      bytes: PNG.length,
    });
    expect((await fetchRemoteImage(`${base}/lying.jpg`)).type).toBe('image/gif');
    expect((await fetchRemoteImage(`${base}/moved.png`)).type).toBe('image/png');
  });

  it('refuses what is not a raster image, too large, missing or too slow — saying which', async () => {
    await expect(fetchRemoteImage(`${base}/page.png`)).rejects.toThrow(/is not an image/);
    await expect(fetchRemoteImage(`${base}/drawing.svg`)).rejects.toThrow(/SVG drawing/);
    await expect(fetchRemoteImage(`${base}/big-declared.png`)).rejects.toThrow('The image is larger than 5 MB.');
    await expect(fetchRemoteImage(`${base}/big-streamed.png`, { maxBytes: 1024 * 1024 })).rejects.toThrow(
      'The image is larger than 1 MB.',
    );
    await expect(fetchRemoteImage(`${base}/gone.png`)).rejects.toMatchObject({
      code: 'api',
      message: expect.stringContaining('answered 404 Not Found') as string,
    });
    await expect(fetchRemoteImage(`${base}/slow.png`, { timeoutMs: 200 })).rejects.toThrow(/took too long/);
    await expect(fetchRemoteImage('http://127.0.0.1:9/none.png')).rejects.toMatchObject({ code: 'unreachable' });
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

describe('tickets.image', () => {
  let r: Awaited<ReturnType<typeof rig>>;
  let id: number;
  beforeAll(async () => {
    r = await rig();
    id = r.server.db
      .prepare(`SELECT id FROM support_tickets WHERE org = ? ORDER BY id LIMIT 1`)
      .pluck()
      .get(r.server.org) as number;
    r.server.db
      .prepare('UPDATE support_tickets SET description = ? WHERE id = ?')
      .run(`<p>See <img src="${base}/a.png" alt="shot"></p>`, id);
    await r.engine.invoke('tickets.sync', { wait: true });
  });

  it("fetches an image the ticket's description shows, and no other address", async () => {
    const { engine, server } = r;
    const before = hits.length;
    const detail = await engine.invoke('tickets.get', { id });
    expect(detail.ticket.remoteImages).toBe(1);
    // Opening the ticket asked nothing of the image's host.
    expect(hits.length).toBe(before);
    const image = await engine.invoke('tickets.image', { id, src: `${base}/a.png` });
    expect(image.type).toBe('image/png');
    expect(hits.slice(before)).toEqual(['/a.png']);
    await expect(engine.invoke('tickets.image', { id, src: `${base}/lying.jpg` })).rejects.toMatchObject({
      code: 'not_found',
    });
    await expect(engine.invoke('tickets.image', { id, src: `${server.url}/api/` })).rejects.toMatchObject({
      code: 'not_found',
    });
    await expect(engine.invoke('tickets.image', { id, src: 'file:///etc/passwd' })).rejects.toMatchObject({
      code: 'validation',
    });
    expect(hits.slice(before)).toEqual(['/a.png']);
  });
});
