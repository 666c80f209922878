/** Small real files for upload tests, built in memory. */

/** A valid 1x1 PNG, padded after IEND to reach `size` bytes when asked. */
export function pngFile(size = 0): Buffer {
  const png = Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
    'base64',
  );
  return size > png.length ? Buffer.concat([png, Buffer.alloc(size - png.length)]) : png;
}

export function pdfFile(): Buffer {
  return Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
}

/** An MP4 header (ftyp box), enough for content sniffing. */
export function mp4File(size = 0): Buffer {
  const ftyp = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypmp42'), Buffer.from([0, 0, 0, 0]), Buffer.from('mp42isom')]);
  return size > ftyp.length ? Buffer.concat([ftyp, Buffer.alloc(size - ftyp.length)]) : ftyp;
}

export function form(fields: Record<string, string>, file?: { name: string; content: Buffer; type?: string }): FormData {
  const data = new FormData();
  for (const [key, value] of Object.entries(fields)) data.append(key, value);
  if (file) data.append('headerMedia', new Blob([file.content], { type: file.type ?? 'application/octet-stream' }), file.name);
  return data;
}
