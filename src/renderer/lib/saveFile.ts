/**
 * Hands a file to the host's own saving: the browser's downloads in browser mode, the desktop app's save dialog in
 * Electron (a download without a path set asks where to save it). Used by the analytics export's download and the
 * resource lists' Export CSV.
 */
export function saveFile(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  // The browser has taken the file by the time a minute is up.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
