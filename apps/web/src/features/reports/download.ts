/** Saves a Blob under a file name (an object URL clicked through a temporary link). */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** A file name for a report: customer, period label and date, safe for every file system. */
export function reportFileName(customerName: string, periodLabel: string, date: string, ext: 'csv' | 'pdf'): string {
  const slug = `${customerName} ${periodLabel} ${date}`
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return `${slug || 'report'}.${ext}`;
}
