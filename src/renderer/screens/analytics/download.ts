/**
 * Browser mode's "Download": the host hands a finished export's file to this page (its session cookie, its Origin), and the
 * page saves it through the browser's own downloads. Nothing but the export's id is sent.
 */

export async function downloadExport(id: string, fileName: string): Promise<void> {
  const response = await fetch(`/export-file/${encodeURIComponent(id)}`, { method: 'POST' });
  if (!response.ok) throw new Error((await response.text()) || `${response.status} ${response.statusText}`);
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  // The browser has taken the file by the time a minute is up.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** The last part of a path written on any system. */
export const fileNameOf = (path: string) => path.split(/[\\/]/).pop() || path;
