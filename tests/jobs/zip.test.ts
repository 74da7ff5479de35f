/**
 * The app's zip writer (`zipFiles`) writes with Node's native deflate and CRC-32 what yazl's `addBuffer` writes in
 * JavaScript (yazl's CRC-32 took a tenth of a person export's CPU). It must stay byte for byte yazl's output for the
 * same files and options — names, levels, modes, dates the DOS time cannot hold — and read back whole, CRCs checked.
 */
import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import { ZipFile } from 'yazl';
import { zipFiles, type ZipFileEntry, type ZipOptions } from '../../src/main/engine/zip';

async function yazlZip(entries: readonly ZipFileEntry[], options: ZipOptions): Promise<Buffer> {
  const zip = new ZipFile();
  for (const entry of entries)
    zip.addBuffer(entry.data, entry.name, {
      mtime: options.mtime,
      mode: options.mode,
      compressionLevel: options.level,
    });
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/** Text that deflates unevenly: repeated lines, unicode, and a stretch of seeded noise. */
function sample(lines: number): Buffer {
  let seed = 11;
  const noise = Array.from({ length: lines }, () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % 97);
  return Buffer.from(`\uFEFFid,text\r\n${noise.map((n, i) => `${i},"ünï ${n} 😀 ""q""",=${n}\r\n`).join('')}`, 'utf8');
}

const ENTRIES: ZipFileEntry[] = [
  { name: 'chat-history.csv', data: sample(20_000) },
  { name: 'empty.csv', data: Buffer.alloc(0) },
  { name: 'données/ünïcödé 😀.csv', data: sample(3) },
  { name: 'manifest.json', data: Buffer.from('{\n  "a": 1\n}\n') },
];

describe('zipFiles', () => {
  it('writes what yazl writes, byte for byte, for each level, mode and date', async () => {
    const dates = [
      new Date(Date.UTC(2026, 10, 26, 13, 5, 7, 900)), // an odd second (the DOS time keeps even ones)
      new Date(Date.UTC(1970, 0, 1)), // before the DOS time's first year
      new Date(Date.UTC(2150, 0, 1)), // after its last, and past the Info-ZIP timestamp's 2038
    ];
    for (const level of [0, 1, 6, 9])
      for (const mode of [0o100644, 0o100600])
        for (const mtime of dates) {
          const options = { mtime, mode, level };
          const ours = await zipFiles(ENTRIES, options);
          expect(ours.equals(await yazlZip(ENTRIES, options)), JSON.stringify(options)).toBe(true);
        }
  });

  it('reads back whole: every file, its CRC checked, its name and its time to the second', async () => {
    const mtime = new Date(Date.UTC(2026, 10, 26, 13, 5, 7));
    const zip = await JSZip.loadAsync(await zipFiles(ENTRIES, { mtime, mode: 0o100644, level: 1 }), {
      checkCRC32: true,
    });
    expect(Object.keys(zip.files)).toEqual(ENTRIES.map((e) => e.name));
    for (const entry of ENTRIES) {
      const file = zip.file(entry.name)!;
      expect((await file.async('nodebuffer')).equals(entry.data), entry.name).toBe(true);
      expect(Math.abs(file.date.getTime() - mtime.getTime())).toBeLessThan(2000);
    }
  });

  it('refuses a name that would land outside the folder it is unpacked in', async () => {
    const options = { mtime: new Date(), mode: 0o100644, level: 1 };
    for (const name of ['../up.csv', 'a/../../up.csv', '/etc/passwd', 'C:\\x.csv', '..\\up.csv', '', 'folder/'])
      await expect(zipFiles([{ name, data: Buffer.from('x') }], options), name).rejects.toThrow();
  });
});
