/**
 * Remote images in ticket descriptions, fetched by the engine only when the admin asks ("show images"), and handed
 * to the page as a `data:` URL. The page's CSP keeps `img-src 'self' data:` in every shell, so nothing in a
 * description can make the window contact another host: a tracking pixel stays unrequested until asked for.
 *
 * Only sources the ticket's own (sanitised) description carries are fetched, so the call is not a general-purpose
 * fetcher; only public addresses or the tenant's own origin are asked, each redirect checked again
 * (image-address.ts); no cookies or referrer go with the request; the answer must really be a raster image (checked
 * by its bytes, not its Content-Type), at most a few megabytes, within a time limit.
 */
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import type { RichNode } from '../../../shared/contract';
import { EngineError } from '../errors';
import { checkImageUrl, systemResolver, type Resolver } from './image-address';

export const IMAGE_LIMITS = {
  maxBytes: 5 * 1024 * 1024,
  timeoutMs: 15_000,
};

export interface FetchedImage {
  dataUrl: string;
  type: string;
  bytes: number;
}

/** Every image source in a sanitised description, in document order, without repeats. */
export function imageSources(doc: RichNode[]): string[] {
  const found = new Set<string>();
  const walk = (nodes: RichNode[]) => {
    for (const node of nodes) {
      if (node.t !== 'el') continue;
      if (node.tag === 'img' && node.src) found.add(node.src);
      walk(node.children);
    }
  };
  walk(doc);
  return [...found];
}

const startsWith = (bytes: Uint8Array, signature: number[], at = 0) =>
  bytes.length >= at + signature.length && signature.every((b, i) => bytes[at + i] === b);
const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0));

/** The raster image type of these bytes (PNG, JPEG, GIF, WebP, AVIF, BMP, ICO), or null for anything else. */
export function sniffImageType(bytes: Uint8Array): string | null {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(bytes, ascii('GIF87a')) || startsWith(bytes, ascii('GIF89a'))) return 'image/gif';
  if (startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WEBP'), 8)) return 'image/webp';
  if (startsWith(bytes, ascii('ftypavif'), 4) || startsWith(bytes, ascii('ftypavis'), 4)) return 'image/avif';
  if (startsWith(bytes, ascii('BM')) && bytes.length > 26) return 'image/bmp';
  if (startsWith(bytes, [0x00, 0x00, 0x01, 0x00]) && bytes.length > 6) return 'image/x-icon';
  return null;
}

function looksLikeSvg(bytes: Uint8Array): boolean {
  const head = new TextDecoder().decode(bytes.subarray(0, 512)).trimStart().toLowerCase();
  return head.startsWith('<svg') || (head.startsWith('<?xml') && head.includes('<svg'));
}

const hostOf = (src: string | URL) => {
  try {
    return new URL(src).host;
  } catch {
    return String(src);
  }
};

const MAX_REDIRECTS = 5;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const ACCEPT = 'image/avif,image/webp,image/png,image/jpeg,image/gif,image/*;q=0.8';

export interface ImageFetchOptions {
  maxBytes?: number;
  timeoutMs?: number;
  /** Origins fetched from whatever their address: the tenant's own (see image-address.ts). */
  trustedOrigins?: readonly string[];
  /** How host names become addresses (the system's DNS; a stub in tests). */
  resolve?: Resolver;
}

/** A lookup that answers with the addresses already checked, so the connection goes where the check looked. */
function pinnedLookup(addresses: string[]): LookupFunction {
  const entries = addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  return (_host, options, callback) => {
    if (options.all) callback(null, entries);
    else callback(null, entries[0]!.address, entries[0]!.family);
  };
}

/** One GET without cookies, referrer or connection reuse, to the checked addresses. */
function get(url: URL, addresses: string[], signal: AbortSignal): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const request = send(
      url,
      { method: 'GET', signal, agent: false, headers: { Accept: ACCEPT }, lookup: pinnedLookup(addresses) },
      resolve,
    );
    request.on('error', reject);
    request.end();
  });
}

/**
 * GETs an image, reading at most `maxBytes`: every hop (the address and each redirect) is checked first
 * (image-address.ts); every failure is an EngineError that says what happened.
 */
export async function fetchRemoteImage(src: string, options: ImageFetchOptions = {}): Promise<FetchedImage> {
  const maxBytes = options.maxBytes ?? IMAGE_LIMITS.maxBytes;
  const policy = { resolve: options.resolve ?? systemResolver, trustedOrigins: options.trustedOrigins ?? [] };
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), options.timeoutMs ?? IMAGE_LIMITS.timeoutMs);
  let url = new URL(src);
  const host = hostOf(src);
  const late = () => new EngineError('unreachable', `The image from ${host} took too long to arrive.`);
  try {
    for (let hop = 0; ; hop++) {
      const target = await checkImageUrl(url, policy);
      if (controller.signal.aborted) throw late();
      let response: IncomingMessage;
      try {
        response = await get(url, target.addresses, controller.signal);
      } catch {
        throw controller.signal.aborted
          ? late()
          : new EngineError('unreachable', `The image could not be loaded: ${url.host} did not answer.`);
      }
      const status = response.statusCode ?? 0;
      const location = response.headers.location;
      if (REDIRECTS.has(status) && location) {
        response.destroy();
        if (hop >= MAX_REDIRECTS) {
          throw new EngineError('unreachable', `The image from ${host} redirects too many times.`);
        }
        url = new URL(location, url);
        continue;
      }
      if (status < 200 || status > 299) {
        response.destroy();
        throw new EngineError(
          'api',
          `The image could not be loaded: ${url.host} answered ${status} ${response.statusMessage ?? ''}`.trim(),
          { status },
        );
      }
      const declared = Number(response.headers['content-length']);
      if (Number.isFinite(declared) && declared > maxBytes) {
        response.destroy();
        throw tooLarge(maxBytes);
      }
      return sniffed(await readAtMost(response, maxBytes, url.host, controller.signal), url.host);
    }
  } finally {
    clearTimeout(timer);
  }
}

async function readAtMost(
  response: IncomingMessage,
  maxBytes: number,
  host: string,
  signal: AbortSignal,
): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of response) {
      size += (chunk as Buffer).byteLength;
      if (size > maxBytes) {
        response.destroy();
        throw tooLarge(maxBytes);
      }
      chunks.push(chunk as Buffer);
    }
  } catch (error) {
    if (error instanceof EngineError) throw error;
    throw new EngineError(
      'unreachable',
      signal.aborted
        ? `The image from ${host} took too long to arrive.`
        : `The image from ${host} stopped arriving part-way.`,
    );
  }
  return Buffer.concat(chunks);
}

function sniffed(bytes: Buffer, host: string): FetchedImage {
  const type = sniffImageType(bytes);
  if (!type) {
    throw new EngineError(
      'validation',
      looksLikeSvg(bytes)
        ? `The image from ${host} is an SVG drawing; only photos and screenshots (PNG, JPEG, GIF, WebP) are shown.`
        : `What ${host} sent is not an image.`,
    );
  }
  return { dataUrl: `data:${type};base64,${bytes.toString('base64')}`, type, bytes: bytes.byteLength };
}

function tooLarge(maxBytes: number): EngineError {
  return new EngineError('validation', `The image is larger than ${Math.round(maxBytes / 1024 / 1024)} MB.`);
}
