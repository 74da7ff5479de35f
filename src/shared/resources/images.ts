/**
 * Images a field of its own uploads (a tenant's logo, favicon…): travelling as `data:` URLs (the renderer's preview,
 * the bridge, the CLI's `--set logo=@file.png`), checked by their bytes before anything is sent. The spec says only
 * that the upload is a file; an upload that is not an image at all is refused here, and what the platform may still
 * refuse (a size above what tenants usually accept, SVG where it reads raster images) is said as a warning.
 */
import { formatBytes } from '../bytes';

/** The image formats known by their first bytes, as browsers and image libraries know them. */
const FORMATS: { type: string; name: string; test(bytes: Uint8Array, text: string): boolean }[] = [
  { type: 'image/png', name: 'PNG', test: (b) => starts(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) },
  { type: 'image/jpeg', name: 'JPEG', test: (b) => starts(b, [0xff, 0xd8, 0xff]) },
  { type: 'image/gif', name: 'GIF', test: (_b, t) => t.startsWith('GIF87a') || t.startsWith('GIF89a') },
  { type: 'image/webp', name: 'WebP', test: (_b, t) => t.startsWith('RIFF') && t.slice(8, 12) === 'WEBP' },
  { type: 'image/x-icon', name: 'ICO', test: (b) => starts(b, [0x00, 0x00, 0x01, 0x00]) },
  { type: 'image/bmp', name: 'BMP', test: (_b, t) => t.startsWith('BM') },
  { type: 'image/avif', name: 'AVIF', test: (_b, t) => t.slice(4, 12) === 'ftypavif' },
  {
    type: 'image/svg+xml',
    name: 'SVG',
    test: (_b, t) => /^\uFEFF?\s*(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*(<!DOCTYPE svg[^>]*>\s*)?<svg[\s>]/i.test(t),
  },
];

export const IMAGE_FORMAT_NAMES = FORMATS.map((format) => format.name);
/** What a file picker offers. */
export const IMAGE_ACCEPT = FORMATS.map((format) => format.type).join(',');
/** Above this the platform may answer 413 "File too large" (what many tenants accept; the spec names no limit). */
export const TYPICAL_IMAGE_LIMIT_BYTES = 25 * 1024 * 1024;

function starts(bytes: Uint8Array, prefix: number[]): boolean {
  return prefix.every((byte, index) => bytes[index] === byte);
}

export interface DecodedImage {
  type: string;
  bytes: Uint8Array;
}

/** The bytes of a base64 `data:` URL, or null when the text is not one. */
export function decodeDataUrl(url: string): DecodedImage | null {
  const match = /^data:([^;,]*)(;[^,]*)?;base64,([A-Za-z0-9+/=\s]*)$/.exec(url);
  if (!match) return null;
  const binary = atob(match[3]!.replace(/\s/g, ''));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return { type: match[1] || 'application/octet-stream', bytes };
}

/** A data: URL of bytes (the CLI reads a file into one). */
export function toDataUrl(type: string, bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return `data:${type};base64,${btoa(binary)}`;
}

/** The image format of some bytes, by their first bytes; null when they are none the kit knows. */
export function imageFormat(bytes: Uint8Array): { type: string; name: string } | null {
  const head = String.fromCharCode(...bytes.subarray(0, 512));
  const found = FORMATS.find((candidate) => candidate.test(bytes, head));
  return found ? { type: found.type, name: found.name } : null;
}

export type ImageCheck =
  { ok: true; type: string; format: string; size: number; warning: string | null } | { ok: false; message: string };

/** Whether an image about to be uploaded is an image, by its bytes (a name or a declared type can lie). */
export function checkImage(dataUrl: string): ImageCheck {
  const decoded = decodeDataUrl(dataUrl);
  if (!decoded) return { ok: false, message: 'Choose an image file (the value is not a file the app read).' };
  const { bytes } = decoded;
  if (bytes.length === 0) return { ok: false, message: 'The file is empty: choose an image.' };
  const format = imageFormat(bytes);
  if (!format) {
    return {
      ok: false,
      message: `Not an image: the file is none of ${IMAGE_FORMAT_NAMES.join(', ')}${decoded.type.startsWith('image/') ? '' : ` (it is ${decoded.type})`}.`,
    };
  }
  const warnings: string[] = [];
  if (bytes.length > TYPICAL_IMAGE_LIMIT_BYTES) {
    warnings.push(
      `${formatBytes(bytes.length)}: above the ${formatBytes(TYPICAL_IMAGE_LIMIT_BYTES)} many tenants accept, so the tenant may refuse it (413 File too large)`,
    );
  }
  if (format.name === 'SVG') warnings.push('SVG: a tenant that checks uploads as raster images may refuse it');
  return { ok: true, type: format.type, format: format.name, size: bytes.length, warning: warnings.join('; ') || null };
}
