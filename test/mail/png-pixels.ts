/**
 * A small PNG reader for tests, independent of the renderer that wrote the image: the chunks are
 * checked, the IDAT data inflated with zlib and each row's filter undone, giving the pixels of an
 * 8-bit, non-interlaced RGB or RGBA image (what resvg writes).
 */
import { inflateSync } from "node:zlib";

export const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export interface DecodedPng {
  width: number;
  height: number;
  /** Bytes per pixel: 3 (RGB) or 4 (RGBA). */
  channels: number;
  pixels: Buffer;
}

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  if (pa <= pb && pa <= pc) return a;
  return pb <= pc ? b : c;
}

export function decodePng(png: Buffer): DecodedPng {
  if (!png.subarray(0, 8).equals(PNG_SIGNATURE)) throw new Error("not a PNG");
  let offset = 8;
  let width = 0;
  let height = 0;
  let channels = 0;
  const data: Buffer[] = [];
  while (offset < png.length) {
    const length = png.readUInt32BE(offset);
    const type = png.toString("latin1", offset + 4, offset + 8);
    const body = png.subarray(offset + 8, offset + 8 + length);
    if (type === "IHDR") {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      const [depth, colour, , , interlace] = body.subarray(8, 13);
      if (depth !== 8 || interlace !== 0 || (colour !== 2 && colour !== 6)) {
        throw new Error(`unsupported PNG: depth ${depth}, colour type ${colour}`);
      }
      channels = colour === 6 ? 4 : 3;
    }
    if (type === "IDAT") data.push(body);
    offset += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(data));
  const stride = width * channels;
  const pixels = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    for (let x = 0; x < stride; x++) {
      const value = raw[y * (stride + 1) + 1 + x] as number;
      const left = x >= channels ? (pixels[y * stride + x - channels] as number) : 0;
      const up = y > 0 ? (pixels[(y - 1) * stride + x] as number) : 0;
      const corner =
        x >= channels && y > 0 ? (pixels[(y - 1) * stride + x - channels] as number) : 0;
      const predictor = [0, left, up, (left + up) >> 1, paeth(left, up, corner)][filter ?? -1];
      if (predictor === undefined) throw new Error(`bad PNG filter ${filter} in row ${y}`);
      pixels[y * stride + x] = (value + predictor) & 0xff;
    }
  }
  return { width, height, channels, pixels };
}

/** How many pixels are dark (each colour channel below 100): drawn lines, bars and text. */
export function darkPixels(image: DecodedPng): number {
  let dark = 0;
  for (let i = 0; i < image.pixels.length; i += image.channels) {
    const [r = 0, g = 0, b = 0] = image.pixels.subarray(i, i + 3);
    if (r < 100 && g < 100 && b < 100) dark++;
  }
  return dark;
}

/** The number of distinct colours. */
export function distinctColours(image: DecodedPng): number {
  const seen = new Set<number>();
  for (let i = 0; i < image.pixels.length; i += image.channels) {
    seen.add(image.pixels.readUIntBE(i, 3));
  }
  return seen.size;
}
