// Tiny media files built in code, so the server ships no binary assets and needs no node:* module.

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) c = (CRC_TABLE[(c ^ b) & 0xff] as number) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function adler32(bytes: Uint8Array): number {
  let a = 1;
  let b = 0;
  for (const byte of bytes) {
    a = (a + byte) % 65521;
    b = (b + a) % 65521;
  }
  return ((b << 16) | a) >>> 0;
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

function pngChunk(type: string, data: Uint8Array): Uint8Array {
  const body = concat([new TextEncoder().encode(type), data]);
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  out.set(body, 4);
  view.setUint32(8 + data.length, crc32(body));
  return out;
}

/** The 8 bytes every PNG file starts with. */
export const PNG_SIGNATURE = Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a);

/**
 * A valid RGB PNG of `size`×`size` pixels: a diagonal split between two colours. The image data is
 * zlib-wrapped with one stored (uncompressed) deflate block, which every decoder accepts; it is small
 * enough (size ≤ 100) to fit one block.
 */
export function makePng(
  size = 4,
  from: [number, number, number] = [0x3b, 0x82, 0xf6],
  to = [0xf9, 0x73, 0x16],
): Uint8Array {
  const rowBytes = 1 + size * 3;
  const raw = new Uint8Array(rowBytes * size);
  for (let y = 0; y < size; y++) {
    raw[y * rowBytes] = 0; // filter type "None"
    for (let x = 0; x < size; x++) {
      const colour = x >= y ? from : to;
      raw.set(colour, y * rowBytes + 1 + x * 3);
    }
  }
  const stored = new Uint8Array(5 + raw.length);
  const sv = new DataView(stored.buffer);
  stored[0] = 0x01; // BFINAL=1, BTYPE=00 (stored)
  sv.setUint16(1, raw.length, true);
  sv.setUint16(3, ~raw.length & 0xffff, true);
  stored.set(raw, 5);
  const trailer = new Uint8Array(4);
  new DataView(trailer.buffer).setUint32(0, adler32(raw));
  const idat = concat([Uint8Array.of(0x78, 0x01), stored, trailer]);
  const ihdr = new Uint8Array(13);
  const hv = new DataView(ihdr.buffer);
  hv.setUint32(0, size);
  hv.setUint32(4, size);
  ihdr.set([8, 2, 0, 0, 0], 8); // 8-bit depth, RGB, deflate, adaptive filtering, no interlace
  return concat([
    PNG_SIGNATURE,
    pngChunk("IHDR", ihdr),
    pngChunk("IDAT", idat),
    pngChunk("IEND", new Uint8Array()),
  ]);
}

/**
 * A valid mono 16-bit PCM WAV file holding a sine tone: `durationMs` long at `sampleRate` Hz.
 * The 44-byte RIFF header is followed by the samples, little-endian.
 */
export function makeWav(frequency = 440, durationMs = 100, sampleRate = 8000): Uint8Array {
  const samples = Math.round((sampleRate * durationMs) / 1000);
  const out = new Uint8Array(44 + samples * 2);
  const view = new DataView(out.buffer);
  const ascii = (offset: number, text: string) => {
    for (let i = 0; i < text.length; i++) out[offset + i] = text.charCodeAt(i);
  };
  ascii(0, "RIFF");
  view.setUint32(4, 36 + samples * 2, true);
  ascii(8, "WAVE");
  ascii(12, "fmt ");
  view.setUint32(16, 16, true); // fmt chunk size
  view.setUint16(20, 1, true); // PCM
  view.setUint16(22, 1, true); // mono
  view.setUint32(24, sampleRate, true);
  view.setUint32(28, sampleRate * 2, true); // byte rate
  view.setUint16(32, 2, true); // block align
  view.setUint16(34, 16, true); // bits per sample
  ascii(36, "data");
  view.setUint32(40, samples * 2, true);
  for (let i = 0; i < samples; i++) {
    const value = Math.round(Math.sin((2 * Math.PI * frequency * i) / sampleRate) * 0.3 * 0x7fff);
    view.setInt16(44 + i * 2, value, true);
  }
  return out;
}
