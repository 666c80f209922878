// Draws the app icon from the brand mark (the favicon in desktop/src/renderer/index.html: a white
// chat bubble outline on a WhatsApp-green rounded square) as a 1024x1024 PNG, the size
// electron-builder turns into .icns (macOS), .ico (Windows) and the Linux icon set. Run by
// `npm run desktop:dist` before packaging, so no binary image is kept in the repository.
//
// Usage: node desktop/build/make-icon.mjs [output.png] [size]
// No dependencies: the shapes are drawn with distance tests (4x4 samples a pixel for smooth
// edges) and the PNG is encoded with node:zlib.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';

const GREEN = [0x25, 0xd3, 0x66];
const WHITE = [0xff, 0xff, 0xff];

// The mark on its 32x32 grid (index.html's SVG): rounded square rx 8; bubble of radius 9 around
// (16,16), stroke 2, open between its two tail ends, and the tail (8.2,20.5) -> (7,25) -> (11.6,23.8).
const CORNER = 8;
const CENTRE = [16, 16];
const RADIUS = 9;
const HALF_STROKE = 1;
const TAIL = [
  [8.2, 20.5],
  [7, 25],
  [11.6, 23.8],
];
const angleOf = ([x, y]) => Math.atan2(y - CENTRE[1], x - CENTRE[0]);
const GAP_FROM = angleOf(TAIL[2]);
const GAP_TO = angleOf(TAIL[0]);

function insideRoundedSquare(x, y) {
  const dx = Math.max(CORNER - x, 0, x - (32 - CORNER));
  const dy = Math.max(CORNER - y, 0, y - (32 - CORNER));
  return dx * dx + dy * dy <= CORNER * CORNER;
}

function distanceToSegment(x, y, [ax, ay], [bx, by]) {
  const vx = bx - ax;
  const vy = by - ay;
  const t = Math.max(0, Math.min(1, ((x - ax) * vx + (y - ay) * vy) / (vx * vx + vy * vy)));
  return Math.hypot(x - (ax + t * vx), y - (ay + t * vy));
}

function onBubble(x, y) {
  const ring = Math.abs(Math.hypot(x - CENTRE[0], y - CENTRE[1]) - RADIUS) <= HALF_STROKE;
  if (ring) {
    const angle = Math.atan2(y - CENTRE[1], x - CENTRE[0]);
    if (!(angle > GAP_FROM && angle < GAP_TO)) return true;
  }
  return distanceToSegment(x, y, TAIL[0], TAIL[1]) <= HALF_STROKE || distanceToSegment(x, y, TAIL[1], TAIL[2]) <= HALF_STROKE;
}

/** RGBA pixels of the icon at `size` x `size`. */
export function drawIcon(size) {
  const samples = 4;
  const pixels = Buffer.alloc(size * size * 4);
  const scale = 32 / size;
  for (let py = 0; py < size; py += 1) {
    for (let px = 0; px < size; px += 1) {
      let green = 0;
      let white = 0;
      for (let sy = 0; sy < samples; sy += 1) {
        for (let sx = 0; sx < samples; sx += 1) {
          const x = (px + (sx + 0.5) / samples) * scale;
          const y = (py + (sy + 0.5) / samples) * scale;
          if (!insideRoundedSquare(x, y)) continue;
          if (onBubble(x, y)) white += 1;
          else green += 1;
        }
      }
      const covered = green + white;
      const offset = (py * size + px) * 4;
      if (covered === 0) continue;
      for (let channel = 0; channel < 3; channel += 1) {
        pixels[offset + channel] = Math.round((GREEN[channel] * green + WHITE[channel] * white) / covered);
      }
      pixels[offset + 3] = Math.round((255 * covered) / (samples * samples));
    }
  }
  return pixels;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(buffer) {
  let c = 0xffffffff;
  for (const byte of buffer) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A PNG file of RGBA `pixels` (8 bits a channel, no filtering). */
export function encodePng(pixels, size) {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bit depth
  header[9] = 6; // RGBA
  const rows = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y += 1) pixels.copy(rows, y * (size * 4 + 1) + 1, y * size * 4, (y + 1) * size * 4);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

export function makeIcon(outputPath, size = 1024) {
  mkdirSync(path.dirname(outputPath), { recursive: true });
  writeFileSync(outputPath, encodePng(drawIcon(size), size));
  return outputPath;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const output = path.resolve(process.argv[2] ?? path.join(here, 'icon.png'));
  const size = Number(process.argv[3] ?? 1024);
  console.log(`[make-icon] wrote ${makeIcon(output, size)} (${size}x${size})`);
}
